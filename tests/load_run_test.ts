/** Loading runs and gates: streaming JSONL, attempts, hashes, issues with file and line. */
import { deepEqual, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import fc from "fast-check";
import { forEachJsonlLine } from "../lib/load/jsonl.ts";
import { readRun } from "../lib/load/read_run.ts";
import { readGateParts } from "../lib/load/read_gate.ts";
import { LOADER_VERSION } from "../lib/load/version.ts";
import { mutateJsonl, tempDir, writeGateFixture } from "./fixtures.ts";

Deno.test("readRun: attempts, failed attempts and the sha256 of manifest then traces bytes", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 5, failedFirst: [2] });
  const r = await readRun(fx.gateDir);
  ok(r.ok);
  const run = r.value;
  deepEqual(run.manifest.arm, "masked");
  deepEqual(run.attempts.length, 6);
  const failed = run.attempts[2]!;
  deepEqual([failed.status, failed.reward, failed.rewards, failed.error, failed.line], [
    "failed",
    null,
    {},
    "endpoint timeout",
    3,
  ]);
  const expected = createHash("sha256")
    .update(await Deno.readFile(join(fx.gateDir, "manifest.json")))
    .update(await Deno.readFile(join(fx.gateDir, "traces.jsonl")))
    .digest("hex");
  deepEqual(run.sha256, expected);
  ok(LOADER_VERSION.length > 0);
});

Deno.test("readRun: every bad line is reported with its line; unknown fields are kept", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 6 });
  const traces = join(fx.bareDir, "traces.jsonl");
  await mutateJsonl(traces, (o, line) => {
    if (line === 2) return "not json";
    if (line === 4) return { ...o, status: "done" };
    if (line === 5) return { ...o, tokens: { prompt: "many" } };
    return { ...o, latency_ms: 3 };
  });
  const r = await readRun(fx.bareDir);
  ok(!r.ok);
  deepEqual(r.issues.map((i) => [i.code, i.line, i.path ?? null]), [
    ["parse_error", 2, null],
    ["schema_error", 4, "status"],
    ["schema_error", 5, "tokens.prompt"],
    ["schema_error", 5, "tokens.completion"],
  ]);
  ok(r.issues.every((i) => i.file === traces));
});

Deno.test("readRun: a completed attempt must list its injected versions", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 3 });
  await mutateJsonl(join(fx.bareDir, "traces.jsonl"), (o, line) => {
    if (line === 1) delete o.injected;
    return o;
  });
  const r = await readRun(fx.bareDir);
  deepEqual(r.issues.map((i) => [i.code, i.line, i.path]), [["schema_error", 1, "injected"]]);
});

Deno.test("readGateParts: gate.json schema errors carry field paths", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 3 });
  const file = join(fx.gateDir, "gate.json");
  const gate = JSON.parse(await Deno.readTextFile(file));
  gate.slots[1].versions[0].role = "delete";
  gate.estimator = "ols_with_intercept";
  await Deno.writeTextFile(file, JSON.stringify(gate));
  await mutateJsonl(
    join(fx.gateDir, "assignments.jsonl"),
    (o, line) => line === 2 ? { ...o, slots: { ...o.slots, s1: 1 } } : o,
  );
  const g = await readGateParts(fx.gateDir);
  deepEqual(g.plan, null);
  deepEqual(g.issues.map((i) => [i.code, i.line ?? null, i.path]), [
    ["schema_error", null, "estimator"],
    ["schema_error", null, "slots.1.versions.0.role"],
    ["schema_error", 2, "slots.s1"],
  ]);
});

Deno.test("forEachJsonlLine: line numbers survive blank lines, CRLF and any chunking", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "x.jsonl");
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.oneof(
          fc.constant(""),
          fc.constant("  "),
          fc.integer().map((n) => JSON.stringify({ n })),
        ),
        {
          maxLength: 30,
        },
      ),
      fc.boolean(),
      async (lines, crlf) => {
        await Deno.writeTextFile(path, lines.join(crlf ? "\r\n" : "\n"));
        const seen: [number, unknown][] = [];
        const issues = await forEachJsonlLine(path, (v, line) => seen.push([line, v["n"]]));
        deepEqual(issues, []);
        const expected = lines.flatMap((
          l,
          i,
        ) => (l.trim() === "" ? [] : [[i + 1, JSON.parse(l).n]]));
        deepEqual(seen, expected);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("forEachJsonlLine: multi-byte UTF-8 split across read chunks", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "u.jsonl");
  // Long lines so the 64 KiB read chunks split inside a multi-byte character.
  const lines = Array.from(
    { length: 40 },
    (_, i) => JSON.stringify({ i, text: "任务".repeat(3000 + i) }),
  );
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const seen: string[] = [];
  const issues = await forEachJsonlLine(path, (v) => seen.push(v["text"] as string));
  deepEqual(issues, []);
  deepEqual(seen.length, 40);
  ok(seen.every((t, i) => t === "任务".repeat(3000 + i)));
});
