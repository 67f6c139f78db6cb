import { deepEqual, notDeepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { cachedReadRun, runCacheKey } from "../lib/cache/mod.ts";
import { readRun } from "../lib/load/read_run.ts";
import { sha256Hex } from "../lib/core/sha256.ts";

// The demo's masked run of Gate A: 400 attempts with failed ones, tokens,
// provenance and six reward components.
const DEMO_RUN = "data/demo/ckpt-a/gate-a";

async function copyRun(from: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-cache-run-" });
  for (const name of ["manifest.json", "traces.jsonl"]) {
    await Deno.copyFile(join(from, name), join(dir, name));
  }
  return dir;
}

async function listCache(cacheDir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(join(cacheDir, "runs"))) names.push(e.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

Deno.test("miss, then hit with identical data; the hit equals a fresh parse", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  const first = await cachedReadRun(run, { cacheDir });
  const second = await cachedReadRun(run, { cacheDir });
  const fresh = await readRun(run);
  ok(first.ok && second.ok && fresh.ok);
  deepEqual(first.value.cache, "miss");
  deepEqual(second.value.cache, "hit");
  deepEqual(second.value.key, first.value.key);
  deepEqual(second.value.run, fresh.value);
  deepEqual(first.value.run, fresh.value);
  ok(fresh.value.attempts.some((a) => a.status === "failed" && a.error !== null));
  // One Arrow IPC file per key, no temporaries left behind.
  deepEqual(await listCache(cacheDir), [`${first.value.key}.arrow`]);
  const bytes = await Deno.readFile(first.value.path);
  deepEqual(new TextDecoder().decode(bytes.subarray(0, 6)), "ARROW1");
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a one-byte change of traces or manifest misses (a changed baseline never hits)", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  const original = await cachedReadRun(run, { cacheDir });
  ok(original.ok);
  const tracesPath = join(run, "traces.jsonl");
  const traces = await Deno.readFile(tracesPath);
  // Change one digit of the first job_seed: still valid JSON, one byte different.
  const at = new TextDecoder().decode(traces).indexOf('"job_seed":') + '"job_seed":'.length;
  const digit = traces[at]! - 48;
  ok(digit >= 0 && digit <= 9, "the first job_seed starts with a digit");
  traces[at] = 48 + ((digit + 1) % 10);
  await Deno.writeFile(tracesPath, traces);
  const changed = await cachedReadRun(run, { cacheDir });
  ok(changed.ok);
  deepEqual(changed.value.cache, "miss");
  notDeepEqual(changed.value.key, original.value.key);
  notDeepEqual(changed.value.run.attempts[0]!.job_seed, original.value.run.attempts[0]!.job_seed);
  notDeepEqual(changed.value.run.sha256, original.value.run.sha256);

  const manifestPath = join(run, "manifest.json");
  await Deno.writeTextFile(manifestPath, (await Deno.readTextFile(manifestPath)) + " ");
  const manifestChanged = await cachedReadRun(run, { cacheDir });
  ok(manifestChanged.ok);
  deepEqual(manifestChanged.value.cache, "miss");
  deepEqual((await listCache(cacheDir)).length, 3);
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a new loader version misses", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  ok((await cachedReadRun(run, { cacheDir })).ok);
  const other = await cachedReadRun(run, { cacheDir, loaderVersion: "gatelab.load/999" });
  ok(other.ok);
  deepEqual(other.value.cache, "miss");
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a corrupt cache file is ignored and rewritten", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  const first = await cachedReadRun(run, { cacheDir });
  ok(first.ok);
  const good = await Deno.readFile(first.value.path);
  for (
    const corrupt of [
      good.subarray(0, good.length >> 1),
      new Uint8Array([0, 1, 2, 3]),
      new Uint8Array(),
    ]
  ) {
    await Deno.writeFile(first.value.path, corrupt);
    const again = await cachedReadRun(run, { cacheDir });
    ok(again.ok);
    deepEqual(again.value.cache, "miss");
    deepEqual(sha256Hex(await Deno.readFile(first.value.path)), sha256Hex(good));
    const hit = await cachedReadRun(run, { cacheDir });
    ok(hit.ok);
    deepEqual(hit.value.cache, "hit");
  }
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a valid entry stored under another run's key is not trusted", async () => {
  const a = await copyRun(DEMO_RUN);
  const b = await copyRun("data/demo/ckpt-a/bare-val");
  const cacheDir = await Deno.makeTempDir();
  const ra = await cachedReadRun(a, { cacheDir });
  const rb = await cachedReadRun(b, { cacheDir });
  ok(ra.ok && rb.ok);
  await Deno.copyFile(ra.value.path, rb.value.path); // B's slot now holds A's table
  const again = await cachedReadRun(b, { cacheDir });
  ok(again.ok);
  deepEqual(again.value.cache, "miss");
  deepEqual(again.value.run.manifest.arm, "bare");
  for (const d of [a, b, cacheDir]) await Deno.remove(d, { recursive: true });
});

Deno.test("runs with issues are reported and never cached", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(run, "traces.jsonl"), "{not json\n", { append: true });
  const r = await cachedReadRun(run, { cacheDir });
  deepEqual(r.ok, false);
  ok(r.issues.some((i) => i.code === "parse_error"));
  deepEqual(await listCache(cacheDir), []);
  const missing = await cachedReadRun(join(run, "nope"), { cacheDir });
  deepEqual(missing.ok ? [] : missing.issues.map((i) => i.code), ["io_error", "io_error"]);
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("the key separates manifest and traces bytes", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  notDeepEqual(runCacheKey(enc("ab"), enc("c")), runCacheKey(enc("a"), enc("bc")));
});
