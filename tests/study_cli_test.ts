/**
 * The `study` command end to end on a small fixture written here: outputs,
 * determinism, failure mode, and snapshots of the rendered tables.
 * Snapshots: tests/snapshots/study_tables.{md,tex}.snap (see study_snapshot.ts
 * for how to regenerate them). Numbers in the fixture are checked by hand below.
 */
import { deepEqual, ok } from "node:assert/strict";
import { run } from "../lib/cli/study.ts";
import { assertSnapshotFile } from "./study_snapshot.ts";

/**
 * Arms M, B (complete) and O (one ambiguous slot), seeds 1 and 2, tasks
 * a, b, c, reps 0 and 1: 12 slots per arm. Outcome of M: 1 except seed 2
 * task c (0, 0); B: 1 only on task a; O: like M, with (2, c, 1) ambiguous.
 * Extra attempts: M (1, a, 0) verifier_infra then report; B (1, b, 0)
 * report 0 then a later report 1 (violation, unused).
 */
async function writeFixture(dir: string): Promise<void> {
  const slots: string[] = [], attempts: string[] = [];
  const push = (o: Record<string, unknown>) => attempts.push(JSON.stringify(o));
  for (const arm of ["M", "B", "O"]) {
    for (const train_seed of [1, 2]) {
      for (const task_id of ["a", "b", "c"]) {
        for (const rep of [0, 1]) {
          const key = { arm, train_seed, task_id, rep };
          slots.push(JSON.stringify(key));
          const cost = { gpu_hours: 0.25, tokens: 1000, service_seconds: 100 + 10 * rep };
          if (arm === "M" && train_seed === 1 && task_id === "a" && rep === 0) {
            push({ ...key, attempt: 0, kind: "verifier_infra", reason: "timeout", ...cost });
            push({ ...key, attempt: 1, kind: "report", resolved: 1, gpu_hours: 0, tokens: 0 });
            continue;
          }
          if (arm === "O" && train_seed === 2 && task_id === "c" && rep === 1) {
            push({ ...key, attempt: 0, kind: "ambiguous", reason: "no reward file", ...cost });
            continue;
          }
          const resolved = arm === "B"
            ? (task_id === "a" ? 1 : 0)
            : (train_seed === 2 && task_id === "c" ? 0 : 1);
          push({ ...key, attempt: 0, kind: "report", resolved, ...cost });
          if (arm === "B" && train_seed === 1 && task_id === "b" && rep === 0) {
            push({ ...key, attempt: 1, kind: "report", resolved: 1, ...cost });
          }
        }
      }
    }
  }
  await Deno.writeTextFile(`${dir}/slots.jsonl`, slots.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/attempts.jsonl`, attempts.join("\n") + "\n");
  await Deno.writeTextFile(
    `${dir}/study.json`,
    JSON.stringify({
      format: "gatelab.studyplan/v1",
      comparisons: [["M", "B"], ["M", "O"]],
      bootstrap: { draws: 500, seed: 20260927 },
    }),
  );
}

Deno.test("study CLI: outputs, hand-checked numbers, determinism and table snapshots", async () => {
  const dir = await Deno.makeTempDir();
  await writeFixture(dir);
  deepEqual(await run([dir, "--out", `${dir}/out1`, "--quiet"]), 0);
  const names = (await Array.fromAsync(Deno.readDir(`${dir}/out1`))).map((e) => e.name).sort();
  deepEqual(names, [
    ".gatelab-output.json",
    "comparisons.csv",
    "comparisons.parquet",
    "study.json",
    "study_tables.md",
    "study_tables.tex",
  ]);
  const first = await Promise.all(names.map((n) => Deno.readTextFile(`${dir}/out1/${n}`)));
  deepEqual(await run([dir, "--out", `${dir}/out1`, "--quiet"]), 0);
  const second = await Promise.all(names.map((n) => Deno.readTextFile(`${dir}/out1/${n}`)));
  deepEqual(first, second, "a second run must write identical bytes");
  const doc = JSON.parse(await Deno.readTextFile(`${dir}/out1/study.json`));
  // M: 10 of 12 resolved 1 -> 10/12; B: 4 of 12 -> 4/12; O: the ambiguous slot
  // is one of M's two zeros, so S=10, J=11, H=12 -> [10/12, 11/12].
  ok(Math.abs(doc.arms.M.estimate - 10 / 12) < 1e-15);
  ok(Math.abs(doc.arms.B.estimate - 4 / 12) < 1e-15);
  deepEqual([doc.arms.O.estimate, doc.arms.O.bounds, doc.arms.O.label], [
    null,
    [10 / 12, 11 / 12],
    "incomplete",
  ]);
  deepEqual(doc.comparisons[1].ci, null);
  // M - O: [10/12 - 11/12, 10/12 - 10/12].
  ok(Math.abs(doc.comparisons[1].bounds[0] - (10 / 12 - 11 / 12)) < 1e-15);
  ok(Math.abs(doc.comparisons[1].bounds[1] - 0) < 1e-15);
  deepEqual([doc.attempts, doc.issues.length], [{ attempts: 38, used: 37, violations: 1 }, 1]);
  deepEqual(doc.arms.M.attempts.reasons.verifier_infra, { timeout: 1 });
  // Costs: B spent 13 attempts of 0.25 GPU-hours; the violation counts as spent.
  deepEqual([doc.costs.arms.B.attempts, doc.costs.arms.B.gpu_hours], [13, 3.25]);
  // Service p95 over B's 13 times (100 x 7 and 110 x 6): sorted index floor(0.95 * 12) = 11 -> 110.
  deepEqual(doc.costs.arms.B.service_seconds.p95, 110);
  deepEqual(doc.inputs.map((i: { file: string }) => i.file), [
    "study.json",
    "slots.jsonl",
    "attempts.jsonl",
  ]);
  await assertSnapshotFile(
    "study_tables.md.snap",
    await Deno.readTextFile(`${dir}/out1/study_tables.md`),
  );
  await assertSnapshotFile(
    "study_tables.tex.snap",
    await Deno.readTextFile(`${dir}/out1/study_tables.tex`),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("study CLI: input issues write only validation.json and exit 2", async () => {
  const dir = await Deno.makeTempDir();
  await writeFixture(dir);
  await Deno.writeTextFile(
    `${dir}/attempts.jsonl`,
    '{"arm":"M","train_seed":1,"task_id":"a","rep":0,"attempt":0,"kind":"report"}\n{oops\n',
    { append: true },
  );
  deepEqual(await run([dir, "--out", `${dir}/out`, "--quiet"]), 2);
  deepEqual((await Array.fromAsync(Deno.readDir(`${dir}/out`))).map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "validation.json",
  ]);
  const v = JSON.parse(await Deno.readTextFile(`${dir}/out/validation.json`));
  deepEqual(v.ok, false);
  deepEqual(v.issues.map((i: { code: string; path: string }) => [i.code, i.path]), [
    ["schema_error", "resolved"],
    ["parse_error", undefined],
  ]);
  // An attempt of an unplanned slot.
  await writeFixture(dir);
  await Deno.writeTextFile(
    `${dir}/attempts.jsonl`,
    '{"arm":"X","train_seed":1,"task_id":"a","rep":0,"attempt":0,"kind":"report","resolved":1}\n',
    { append: true },
  );
  deepEqual(await run([dir, "--out", `${dir}/out3`, "--quiet"]), 2);
  const v3 = JSON.parse(await Deno.readTextFile(`${dir}/out3/validation.json`));
  deepEqual(v3.counts, { unplanned_episode: 1 });
  await Deno.remove(dir, { recursive: true });
});
