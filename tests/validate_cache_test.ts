/**
 * validateGates and the CLI commands through the run cache:
 * first call all `miss`, second all `hit`, the dataset identical to an
 * uncached validation; a one-byte change of a run misses for that run only;
 * runs with issues are never served from the cache.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { run as validateCli } from "../lib/cli/validate.ts";
import { run as analyzeCli } from "../lib/cli/analyze.ts";
import { mutateJsonl, tempDir, writeGateFixture, writePooledRounds } from "./fixtures.ts";

const DEMO_GATE = "data/demo/ckpt-a/gate-a";

const cacheOf = (v: { inputs: readonly { kind: string; cache?: string }[] }) =>
  v.inputs.map((i) => `${i.kind}:${i.cache ?? "-"}`);

async function cacheEntries(cacheDir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(cacheDir, "runs"))) names.push(e.name);
  return names.sort();
}

async function quietly<T>(f: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const log = console.log, err = console.error;
  const lines: string[] = [];
  console.log = (s: string) => lines.push(s);
  console.error = () => {};
  try {
    return { value: await f(), lines };
  } finally {
    console.log = log;
    console.error = err;
  }
}

Deno.test("demo gate A through the cache: miss, then hit; the dataset equals the uncached one", async () => {
  await using cache = await tempDir();
  const plain = await validateGates([DEMO_GATE]);
  const first = await validateGates([DEMO_GATE], { cacheDir: cache.path });
  const second = await validateGates([DEMO_GATE], { cacheDir: cache.path });
  ok(plain.ok && first.ok && second.ok);
  deepEqual(cacheOf(plain), ["bare:off", "gate:-", "masked:off"]);
  deepEqual(cacheOf(first), ["bare:miss", "gate:-", "masked:miss"]);
  deepEqual(cacheOf(second), ["bare:hit", "gate:-", "masked:hit"]);
  deepEqual(first.dataset, plain.dataset);
  deepEqual(second.dataset, plain.dataset);
  // Only the cache field differs between the inputs.
  const strip = (v: typeof plain) => v.inputs.map(({ cache: _, ...rest }) => rest);
  deepEqual(strip(second), strip(plain));
  deepEqual((await cacheEntries(cache.path)).length, 2);
});

Deno.test("pooled rounds: a one-byte change of the bare traces misses for the bare run only", async () => {
  await using dir = await tempDir();
  const cacheDir = join(dir.path, "cache");
  const [a, b] = await writePooledRounds(dir.path, { tasks: 10 });
  const gates = [a.gateDir, b.gateDir];
  const first = await validateGates(gates, { cacheDir });
  deepEqual(cacheOf(first), ["bare:miss", "gate:-", "masked:miss", "gate:-", "masked:miss"]);
  deepEqual(cacheOf(await validateGates(gates, { cacheDir })), [
    "bare:hit",
    "gate:-",
    "masked:hit",
    "gate:-",
    "masked:hit",
  ]);

  // "steps":5 -> "steps":6 on the first bare line: one byte, still valid, dataset unchanged.
  const tracesPath = join(a.bareDir, "traces.jsonl");
  const before = await Deno.readFile(tracesPath);
  const text = new TextDecoder().decode(before);
  const at = text.indexOf('"steps":5') + '"steps":'.length;
  const after = before.slice();
  after[at] = "6".charCodeAt(0);
  await Deno.writeFile(tracesPath, after);
  deepEqual(after.filter((x, i) => x !== before[i]).length, 1);

  const changed = await validateGates(gates, { cacheDir });
  deepEqual(cacheOf(changed), ["bare:miss", "gate:-", "masked:hit", "gate:-", "masked:hit"]);
  const plain = await validateGates(gates);
  ok(changed.ok && plain.ok);
  deepEqual(changed.dataset, plain.dataset);
  ok(changed.inputs[0]!.sha256 !== first.inputs[0]!.sha256);
  deepEqual(changed.inputs[0]!.sha256, plain.inputs[0]!.sha256);
  // The old entry stays; the changed bare run got its own.
  deepEqual((await cacheEntries(cacheDir)).length, 4);
});

Deno.test("a run with issues is parsed every time and reports the same issues as without the cache", async () => {
  await using dir = await tempDir();
  const cacheDir = join(dir.path, "cache");
  const fx = await writeGateFixture(dir.path, { tasks: 10 });
  await mutateJsonl(
    join(fx.gateDir, "traces.jsonl"),
    (o, line) => line === 3 ? { ...o, status: "exploded" } : o,
  );
  const plain = await validateGates([fx.gateDir]);
  const first = await validateGates([fx.gateDir], { cacheDir });
  const second = await validateGates([fx.gateDir], { cacheDir });
  ok(!plain.ok);
  deepEqual(cacheOf(first), ["bare:miss", "gate:-", "masked:miss"]);
  deepEqual(cacheOf(second), ["bare:hit", "gate:-", "masked:miss"]);
  deepEqual(second.issues, plain.issues);
  deepEqual(second.counts, plain.counts);
  deepEqual((await cacheEntries(cacheDir)).length, 1); // the bare run only
});

Deno.test("gate validate --cache records miss then hit in validation.json; without it, off", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 10 });
  const cacheDir = join(dir.path, "cache"), out = join(dir.path, "out");
  const report = async () => JSON.parse(await Deno.readTextFile(join(out, "validation.json")));
  const cli = (...extra: string[]) =>
    quietly(() => validateCli([fx.gateDir, "--out", out, ...extra]));

  const off = await cli();
  deepEqual(off.value, 0);
  deepEqual(cacheOf(await report()), ["bare:off", "gate:-", "masked:off"]);
  ok(!off.lines.at(-1)!.includes("cache"));

  const miss = await cli("--cache", cacheDir);
  deepEqual(miss.value, 0);
  deepEqual(cacheOf(await report()), ["bare:miss", "gate:-", "masked:miss"]);
  ok(miss.lines.at(-1)!.includes(", cache: 2 miss;"), miss.lines.at(-1));

  const hit = await cli("--cache", cacheDir);
  deepEqual(hit.value, 0);
  deepEqual(cacheOf(await report()), ["bare:hit", "gate:-", "masked:hit"]);
  ok(hit.lines.at(-1)!.includes(", cache: 2 hit;"), hit.lines.at(-1));
});

Deno.test("gate analyze --cache records the cache status in its validation.json", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 12 });
  const cacheDir = join(dir.path, "cache");
  for (const [name, expected] of [["a", "miss"], ["b", "hit"]] as const) {
    const out = join(dir.path, name);
    const r = await quietly(() =>
      analyzeCli([fx.gateDir, "--out", out, "--bootstrap", "0", "--cache", cacheDir, "--quiet"])
    );
    deepEqual(r.value, 0);
    const v = JSON.parse(await Deno.readTextFile(join(out, "validation.json")));
    deepEqual(cacheOf(v), [`bare:${expected}`, "gate:-", `masked:${expected}`]);
  }
});
