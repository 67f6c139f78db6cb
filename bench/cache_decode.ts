/**
 * Run cache timings (issue 6): is a cache hit faster than parsing?
 *
 * 1. In process, on a big run: the demo's masked run of Gate A repeated
 *    `--copies` times with distinct task ids (250 copies: 100,750 rows),
 *    written as a run directory to a temporary folder. Times `readRun`
 *    (parse + checks), `encodeRunTable`, `decodeRunTable`, and a full
 *    `cachedReadRun` hit (read both files, hash them for the key, read and
 *    decode the entry). Best of `--repeats`.
 * 2. Fresh processes (`deno run` of this script with `--child`): the big
 *    run parsed vs read from the cache; `validateGates` on demo Gate A
 *    without a cache, with a cache miss (empty cache) and a cache hit.
 *    Wall time of the process and, inside it, of the operation (module
 *    loading included, since the modules are imported dynamically). Median
 *    of `--repeats`.
 *
 * Usage: deno run --allow-read --allow-write --allow-run=deno --allow-sys=cpus
 *   bench/cache_decode.ts [--copies 250] [--repeats 5] [--skip-fresh]
 * Timings are never test assertions.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import type { Attempt } from "../lib/core/types.ts";

// Everything else is imported dynamically, so that a child process loads
// only what its operation needs (as a command would).

const { values } = parseArgs({
  args: Deno.args,
  options: {
    copies: { type: "string", default: "250" },
    repeats: { type: "string", default: "5" },
    gate: { type: "string", default: "data/demo/ckpt-a/gate-a" },
    "skip-fresh": { type: "boolean", default: false },
    // Child mode: validate once, print JSON timings.
    child: { type: "string" },
  },
});
const repeats = Number(values.repeats), copies = Number(values.copies);
const gate = values.gate;

if (values.child !== undefined) {
  // Child process: one timed operation, JSON timings on stdout. Modules are
  // imported here so that their loading counts like a command's.
  const [what, target, cache] = values.child.split("|") as [string, string, string];
  const t0 = performance.now();
  let detail = "";
  if (what === "validate") {
    const { validateGates } = await import("../lib/validate/validate_gates.ts");
    const v = await validateGates([target], cache === "off" ? {} : { cacheDir: cache });
    if (!v.ok) throw new Error("Cannot benchmark: the demo gate does not validate");
    detail = v.inputs.map((i) => i.cache ?? "-").join(",");
  } else if (cache === "off") {
    const { readRun } = await import("../lib/load/read_run.ts");
    const r = await readRun(target);
    if (!r.ok) throw new Error("Cannot benchmark: the run has issues");
    detail = `${r.value.attempts.length} rows parsed`;
  } else {
    const { cachedReadRun } = await import("../lib/cache/cached_read_run.ts");
    const r = await cachedReadRun(target, { cacheDir: cache });
    if (!r.ok) throw new Error("Cannot benchmark: the run has issues");
    detail = `${r.value.run.attempts.length} rows, ${r.value.cache}`;
  }
  const done = performance.now();
  console.log(JSON.stringify({ opMs: done - t0, sinceStartMs: done, detail }));
  Deno.exit(0);
}

function best(times: number[]): number {
  return Math.min(...times);
}
function median(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
async function timeIt<T>(f: () => T | Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await f();
  return [performance.now() - t0, out];
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function traceLine(a: Attempt): string {
  const { line: _line, ...rest } = a;
  return JSON.stringify(rest);
}

const { readRun } = await import("../lib/load/read_run.ts");
const { cachedReadRun } = await import("../lib/cache/cached_read_run.ts");
const { decodeRunTable, encodeRunTable } = await import("../lib/cache/run_table.ts");
const demo = await readRun(gate);
if (!demo.ok) throw new Error(`Cannot benchmark: ${gate} does not read cleanly`);
const attempts = Array.from(
  { length: copies },
  (_, k) => demo.value.attempts.map((a) => ({ ...a, task_id: `${a.task_id}#${k}` })),
).flat();
const dir = await Deno.makeTempDir({ prefix: "gatelab-bench-cache-" });
const cacheDir = join(dir, "cache");
await Deno.copyFile(join(gate, "manifest.json"), join(dir, "manifest.json"));
await Deno.writeTextFile(join(dir, "traces.jsonl"), attempts.map(traceLine).join("\n") + "\n");
const tracesMb = (await Deno.stat(join(dir, "traces.jsonl"))).size / 1e6;

const parseTimes: number[] = [];
let parsed: Attempt[] = [];
for (let r = 0; r < repeats; r++) {
  const [ms, res] = await timeIt(() => readRun(dir));
  if (!res.ok) throw new Error("Cannot benchmark: the big run has issues");
  parsed = [...res.value.attempts];
  parseTimes.push(ms);
}
const bigRun = { dir, manifest: demo.value.manifest, sha256: "bench", attempts: parsed };
const encodeTimes: number[] = [];
let bytes: Uint8Array = new Uint8Array();
for (let r = 0; r < repeats; r++) {
  const [ms, b] = await timeIt(() => encodeRunTable(bigRun, { key: "k", loaderVersion: "v" }));
  encodeTimes.push(ms), bytes = b;
}
const decodeTimes: number[] = [];
for (let r = 0; r < repeats; r++) {
  const [ms, d] = await timeIt(() => decodeRunTable(bytes, dir));
  if (d === null || d.run.attempts.length !== parsed.length) throw new Error("decode failed");
  decodeTimes.push(ms);
}
const miss = await cachedReadRun(dir, { cacheDir });
if (!miss.ok || miss.value.cache !== "miss") throw new Error("expected a cache miss first");
const hitTimes: number[] = [];
for (let r = 0; r < repeats; r++) {
  const [ms, hit] = await timeIt(() => cachedReadRun(dir, { cacheDir }));
  if (!hit.ok || hit.value.cache !== "hit") throw new Error("expected a cache hit");
  hitTimes.push(ms);
}
const entryMb = (await Deno.stat(miss.value.path)).size / 1e6;

console.log(
  `Big run: ${parsed.length} rows (${copies} x ${demo.value.attempts.length}), ` +
    `traces.jsonl ${tracesMb.toFixed(1)} MB, cache entry ${
      entryMb.toFixed(1)
    } MB; best of ${repeats}`,
);
console.log(`  readRun (parse)        ${fmt(best(parseTimes))}`);
console.log(`  encodeRunTable         ${fmt(best(encodeTimes))}`);
console.log(
  `  decodeRunTable         ${fmt(best(decodeTimes))}  (${
    (best(parseTimes) / best(decodeTimes)).toFixed(1)
  }x faster than parse)`,
);
console.log(
  `  cachedReadRun hit      ${fmt(best(hitTimes))}  (${
    (best(parseTimes) / best(hitTimes)).toFixed(1)
  }x faster than parse; includes reading and hashing both files)`,
);

/** Runs this script as a fresh `deno run` child; wall time and its own timings. */
async function child(what: string, target: string, cache: string) {
  const self = new URL(import.meta.url).pathname;
  const t0 = performance.now();
  const out = await new Deno.Command("deno", {
    args: ["run", "--allow-read", "--allow-write", self, "--child", `${what}|${target}|${cache}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wall = performance.now() - t0;
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    opMs: number;
    sinceStartMs: number;
    detail: string;
  };
  return { wall, ...r };
}

type Sample = Awaited<ReturnType<typeof child>>;
function report(title: string, rows: Record<string, Sample[]>, op: string): void {
  console.log(title);
  for (const [name, samples] of Object.entries(rows)) {
    console.log(
      `  ${name.padEnd(11)} wall ${fmt(median(samples.map((s) => s.wall)))}, ${op} ${
        fmt(median(samples.map((s) => s.opMs)))
      } (${samples[0]!.detail})`,
    );
  }
}

if (!values["skip-fresh"]) {
  const big: Record<string, Sample[]> = { parse: [], "cache hit": [] };
  const demoRows: Record<string, Sample[]> = { "no cache": [], "cache miss": [], "cache hit": [] };
  for (let r = 0; r < repeats; r++) {
    big["parse"]!.push(await child("read", dir, "off"));
    big["cache hit"]!.push(await child("read", dir, cacheDir));
    const fresh = await Deno.makeTempDir({ prefix: "gatelab-bench-cache-" });
    demoRows["no cache"]!.push(await child("validate", gate, "off"));
    demoRows["cache miss"]!.push(await child("validate", gate, fresh));
    demoRows["cache hit"]!.push(await child("validate", gate, fresh));
    await Deno.remove(fresh, { recursive: true });
  }
  report(
    `Fresh process, the big run: readRun vs cachedReadRun (hit); median of ${repeats}`,
    big,
    "read",
  );
  report(
    `Fresh process, validateGates on ${gate} (bare + masked run); median of ${repeats}`,
    demoRows,
    "validateGates",
  );
}
await Deno.remove(dir, { recursive: true });
