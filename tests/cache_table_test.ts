/**
 * The run table (lib/cache/run_table.ts, format gatelab.run-table/v2):
 * decode(encode(run)) deep-equals the run for random attempts; older
 * formats and strings Arrow cannot hold exactly are never served; and
 * commands without a cache directory never load lib/cache (apache-arrow).
 */
import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { Schema, Table, tableToIPC, Utf8, vectorFromArray } from "apache-arrow";
import { cachedReadRun } from "../lib/cache/cached_read_run.ts";
import { decodeRunTable, encodeRunTable, RUN_TABLE_FORMAT } from "../lib/cache/run_table.ts";
import type { Attempt } from "../lib/core/types.ts";
import type { LoadedRun } from "../lib/load/read_run.ts";
import { LOADER_VERSION } from "../lib/load/version.ts";

const DEMO_RUN = "data/demo/ckpt-a/gate-a";
const MANIFEST = { format: "gatelab.run/v1" } as unknown as LoadedRun["manifest"];

// Strings as readRun can give them: non-empty, any (well-formed) Unicode,
// often repeated (a few fixed ones mixed in), e.g. "ws-val-0001#ü", "🙂".
const text = fc.oneof(
  fc.constantFrom("val", "test", "ws-val-0001", "ü-ß-任务", "🙂#2", "a\u0000b"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const orNull = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
// JSON-shaped provenance, normalised through JSON as the loader sees it.
const provenance = orNull(
  fc.oneof(
    fc.constant({ environment: { version: "2.3.1" } }),
    fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3, noNullPrototype: true }),
  ).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>),
);
const tokens = orNull(
  fc.oneof(
    fc.record({ prompt: finite, completion: finite }),
    // The fast-path loader keeps extra keys; they must survive too.
    fc.record({ prompt: finite, completion: finite, cached: fc.nat() }),
  ),
);
const attempt: fc.Arbitrary<Attempt> = fc.record({
  split: text,
  task_id: text,
  sample_id: fc.nat(),
  attempt: fc.nat(),
  status: fc.constantFrom("completed" as const, "failed" as const),
  reward: orNull(finite),
  rewards: fc.dictionary(fc.constantFrom("r_strict", "r_type", "ß", "rewards.x"), finite, {
    noNullPrototype: true,
  }),
  success: orNull(fc.boolean()),
  injected: fc.array(text, { maxLength: 5 }),
  job_seed: orNull(fc.maxSafeInteger()),
  steps: orNull(finite),
  tokens,
  error: orNull(fc.oneof(fc.constant(""), text)),
  provenance,
  line: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
});

Deno.test("decode(encode(run)) deep-equals the run for random attempts", () => {
  fc.assert(
    fc.property(fc.array(attempt, { maxLength: 40 }), fc.string(), (attempts, sha) => {
      const run: LoadedRun = { dir: "r", manifest: MANIFEST, sha256: sha, attempts };
      const decoded = decodeRunTable(encodeRunTable(run, { key: "k", loaderVersion: "v" }), "r");
      ok(decoded !== null);
      deepEqual(decoded.run, run);
      deepEqual([decoded.meta.format, decoded.meta.rows], [RUN_TABLE_FORMAT, attempts.length]);
    }),
    { numRuns: 150 },
  );
});

/** A failed attempt with every optional field null. */
const FAILED: Attempt = {
  split: "val",
  task_id: "t",
  sample_id: 0,
  attempt: 0,
  status: "failed",
  reward: null,
  rewards: {},
  success: null,
  injected: [],
  job_seed: null,
  steps: null,
  tokens: null,
  error: "timeout",
  provenance: null,
  line: 1,
};

Deno.test("encoding is deterministic and keeps -0, empty lists and all-null columns", () => {
  const attempts = [FAILED, { ...FAILED, reward: -0, rewards: { r: -0 }, line: 2 }];
  const run: LoadedRun = { dir: "r", manifest: MANIFEST, sha256: "00", attempts };
  const a = encodeRunTable(run, { key: "k", loaderVersion: "v" });
  const b = encodeRunTable(run, { key: "k", loaderVersion: "v" });
  deepEqual(a, b);
  const back = decodeRunTable(a, "r");
  ok(back !== null);
  deepEqual(back.run, run);
  ok(Object.is(back.run.attempts[1]!.reward, -0));
});

Deno.test("a lone surrogate cannot be stored exactly: encode throws, the cache serves it parsed", async () => {
  const one: LoadedRun = {
    dir: "r",
    manifest: MANIFEST,
    sha256: "00",
    attempts: [{ ...FAILED, task_id: "t\ud800", error: null }],
  };
  throws(() => encodeRunTable(one, { key: "k", loaderVersion: "v" }), RangeError);
  // A run file whose task id is "\ud800"-escaped JSON: valid, read, never cached.
  const dir = await Deno.makeTempDir({ prefix: "gatelab-cache-table-" });
  await Deno.copyFile(join(DEMO_RUN, "manifest.json"), join(dir, "manifest.json"));
  const traces = await Deno.readTextFile(join(DEMO_RUN, "traces.jsonl"));
  await Deno.writeTextFile(
    join(dir, "traces.jsonl"),
    traces.replace('"task_id":"ws-val-0000"', '"task_id":"ws-val-0000\\ud800"'),
  );
  const cacheDir = join(dir, "cache");
  for (const _ of [1, 2]) {
    const r = await cachedReadRun(dir, { cacheDir });
    ok(r.ok);
    equal(r.value.cache, "miss");
    equal(r.value.run.attempts[0]!.task_id, "ws-val-0000\ud800");
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an entry of the older table format is ignored and rewritten", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-cache-table-" });
  for (const name of ["manifest.json", "traces.jsonl"]) {
    await Deno.copyFile(join(DEMO_RUN, name), join(dir, name));
  }
  const cacheDir = join(dir, "cache");
  const first = await cachedReadRun(dir, { cacheDir });
  ok(first.ok);
  const current = await Deno.readFile(first.value.path);
  // A v1-shaped entry under the same key: right identity, old format.
  const v1 = new Table({ split: vectorFromArray(["val"], new Utf8()) });
  const old = tableToIPC(
    new Table(
      new Schema(
        v1.schema.fields,
        new Map([[
          "gatelab.run",
          JSON.stringify({
            format: "gatelab.run-table/v1",
            key: first.value.key,
            loader_version: LOADER_VERSION,
            sha256: first.value.run.sha256,
            rows: 1,
            reward_components: [],
            manifest: first.value.run.manifest,
          }),
        ]]),
      ),
      v1.batches,
    ),
    "file",
  );
  equal(decodeRunTable(old, dir), null);
  await Deno.writeFile(first.value.path, old);
  const again = await cachedReadRun(dir, { cacheDir });
  ok(again.ok);
  equal(again.value.cache, "miss");
  deepEqual(await Deno.readFile(first.value.path), current);
  const hit = await cachedReadRun(dir, { cacheDir });
  ok(hit.ok);
  equal(hit.value.cache, "hit");
  await Deno.remove(dir, { recursive: true });
});

/**
 * Runtime imports reachable from `entry` without `import()`: `import` /
 * `export ... from` statements that are not type-only, resolved as relative
 * paths (bare specifiers are kept as they are, e.g. "apache-arrow").
 */
async function staticImports(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = [resolve(entry)];
  // `import x from "m"`, `export { x } from "m"`, `import "m"`; not `export const x = "m"`.
  const statement =
    /(?:^|\n)\s*(import|export)(\s+type\b)?(?:[^;'"]*?\bfrom\s*|\s*)["']([^"']+)["']/g;
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith("/")) continue;
    const source = await Deno.readTextFile(file);
    for (const m of source.matchAll(statement)) {
      if (m[2] !== undefined) continue; // `import type` / `export type`: erased
      const spec = m[3]!;
      pending.push(spec.startsWith(".") ? resolve(dirname(file), spec) : spec);
    }
  }
  return seen;
}

Deno.test("without a cache directory nothing statically loads lib/cache or apache-arrow", async () => {
  for (
    const entry of [
      "lib/validate/validate_gates.ts",
      "lib/cli/validate.ts",
      "lib/cli/analyze.ts",
      "lib/cli/heldout.ts",
    ]
  ) {
    const graph = [...await staticImports(entry)];
    ok(graph.length > 5, `${entry} has static imports`);
    deepEqual(
      graph.filter((m) => m.startsWith("npm:apache-arrow@") || m.includes("/lib/cache/")),
      [],
      `${entry} must load lib/cache only through import() when a cache directory is given`,
    );
  }
  // The walker does see the cache's own static imports.
  ok(
    [...await staticImports("lib/cache/cached_read_run.ts")].some((m) =>
      m.startsWith("npm:apache-arrow@")
    ),
  );
});
