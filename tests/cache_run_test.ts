import { deepEqual, notDeepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { cachedReadRun, runCacheKey } from "../lib/cache/mod.ts";
import { readRun } from "../lib/load/read_run.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { validationReport } from "../lib/validate/document.ts";

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
  // One sealed entry per key (88-byte checksum header, then an Arrow IPC
  // file), no temporaries left behind.
  deepEqual(await listCache(cacheDir), [`${first.value.key}.run`]);
  const bytes = await Deno.readFile(first.value.path);
  deepEqual(new TextDecoder().decode(bytes.subarray(0, 24)), "gatelab.sealed/1 sha256=");
  deepEqual(new TextDecoder().decode(bytes.subarray(88, 94)), "ARROW1");
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

Deno.test("single-bit flips anywhere in a real entry are all detected: cache_corrupt, entry discarded, numbers identical", async () => {
  // Before the checksum, 9 of 24 flips gave silently wrong numbers and 8 an
  // error blaming traces.jsonl. Positions: every header byte, then 300
  // positions spread over the payload, the bit cycling 0..7; and the last
  // byte.
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  const fresh = await readRun(run);
  const first = await cachedReadRun(run, { cacheDir });
  ok(fresh.ok && first.ok);
  const good = await Deno.readFile(first.value.path);
  const flips: [number, number][] = [];
  for (let at = 0; at < 88; at++) flips.push([at, at % 8]);
  for (let i = 0; i < 300; i++) {
    flips.push([88 + Math.floor((i * (good.length - 88)) / 300), i % 8]);
  }
  flips.push([good.length - 1, 7]);
  let detected = 0;
  for (const [at, bit] of flips) {
    const bad = good.slice();
    bad[at]! ^= 1 << bit;
    await Deno.writeFile(first.value.path, bad);
    const again = await cachedReadRun(run, { cacheDir });
    ok(again.ok, `flip ${at}:${bit} made the run unreadable`);
    // The numbers are those of a fresh parse, never the damaged entry's.
    deepEqual(again.value.run, fresh.value, `flip ${at}:${bit} changed the data`);
    deepEqual(again.value.cache, "miss");
    const [warning, ...more] = again.value.warnings;
    deepEqual(more, []);
    deepEqual([warning?.code, warning?.file], ["cache_corrupt", first.value.path]);
    ok(!warning!.message.includes("traces.jsonl"));
    // Discarded and stored again from the parse: the next read is a clean hit.
    deepEqual(sha256Hex(await Deno.readFile(first.value.path)), sha256Hex(good));
    detected++;
  }
  deepEqual(detected, 88 + 300 + 1);
  const hit = await cachedReadRun(run, { cacheDir });
  ok(hit.ok);
  deepEqual([hit.value.cache, hit.value.warnings], ["hit", []]);
  await Deno.remove(run, { recursive: true });
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a corrupt entry during validation is a warning in validation.json, never an issue", async () => {
  const run = await copyRun(DEMO_RUN);
  const cacheDir = await Deno.makeTempDir();
  const bareDir = await copyRun("data/demo/ckpt-a/bare-val");
  const gateDir = await Deno.makeTempDir({ prefix: "gatelab-cache-gate-" });
  for (const name of ["manifest.json", "traces.jsonl", "gate.json", "assignments.jsonl"]) {
    await Deno.copyFile(join(DEMO_RUN, name), join(gateDir, name));
  }
  const plan = JSON.parse(await Deno.readTextFile(join(gateDir, "gate.json")));
  plan.bare_run_dir = bareDir;
  await Deno.writeTextFile(join(gateDir, "gate.json"), JSON.stringify(plan));
  const clean = await validateGates([gateDir], { cacheDir });
  ok(clean.ok);
  deepEqual(clean.warnings, undefined);
  const entries = await listCache(cacheDir);
  deepEqual(entries.length, 2);
  for (const name of entries) {
    const path = join(cacheDir, "runs", name);
    const bytes = await Deno.readFile(path);
    bytes[bytes.length >> 1]! ^= 4;
    await Deno.writeFile(path, bytes);
  }
  const again = await validateGates([gateDir], { cacheDir });
  ok(again.ok);
  deepEqual(again.dataset, clean.dataset);
  deepEqual(again.warnings?.map((w) => w.code), ["cache_corrupt", "cache_corrupt"]);
  const report = validationReport(again, "gate validate");
  deepEqual([report.ok, report.counts, report.warnings?.length], [true, {}, 2]);
  for (const dir of [run, bareDir, gateDir, cacheDir]) await Deno.remove(dir, { recursive: true });
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
