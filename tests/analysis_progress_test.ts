/**
 * The progress callbacks of the phases after the validation, called by the
 * library itself (the CLI's lines are tests/cli_analyze_progress_test.ts):
 * the dataset's rows as they are paired, the fit's and the diagnostics'
 * steps, the joint Wald test's passes and a tidy CSV's rows. Each is
 * optional and changes no number.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { analyzeDataset } from "../lib/analyze/analyze.ts";
import { DIAGNOSTICS_STEPS } from "../lib/analyze/diagnostics.ts";
import { factorDesign, solveLeastSquares } from "../lib/fit/factor.ts";
import { JOINT_WALD_STEPS, jointWald } from "../lib/infer/diagnostics/joint_wald.ts";
import { tidyCsv } from "../lib/tidy/tidy_table.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { buildPairedDataset, PAIR_PROGRESS_ROWS } from "../lib/validate/paired_dataset.ts";
import { EpisodeMap } from "../lib/validate/episode_map.ts";
import type { Attempt } from "../lib/core/types.ts";

Deno.test("analyzeDataset: the fit's 9 steps and the diagnostics' 8 on Gate A, from 0", async () => {
  const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
  const fit: [number, number][] = [], diagnostics: [number, number][] = [];
  const a = analyzeDataset(dataset!, {
    onFit: (done, total) => fit.push([done, total]),
    onDiagnostics: (done, total) => diagnostics.push([done, total]),
  });
  // Seven metrics: the factorisation, every metric's coefficients, then each metric.
  equal(dataset!.metrics.length, 7);
  deepEqual(fit, Array.from({ length: 10 }, (_, i) => [i, 9]));
  equal(DIAGNOSTICS_STEPS, 8);
  deepEqual(diagnostics, [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => [i, 8]));
  // The same documents as without the callbacks.
  const b = analyzeDataset(dataset!);
  deepEqual(a.contributions, b.contributions);
  deepEqual(a.diagnostics, b.diagnostics);
});

Deno.test("jointWald: a step per pass over the rows on the sums' route", () => {
  const x = Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0]);
  const y = Float64Array.from([0.3, 0.1, 0.2, 0.35, 0.05, 0.25, 0.1, 0.4, 0.15, 0]);
  const z = Uint8Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
  const factor = factorDesign(x, [10, 2]);
  const b = solveLeastSquares(factor, y);
  const residuals = y.map((v, i) => v - x[2 * i]! * b[0]! - x[2 * i + 1]! * b[1]!);
  let steps = 0;
  const w = jointWald({ factor, residuals }, { z, q: 1 }, { onStep: () => steps++ })!;
  deepEqual([w.route, steps, JOINT_WALD_STEPS], ["sums", 3, 3]);
  equal(w.statistic, jointWald({ factor, residuals }, { z, q: 1 })!.statistic);
});

Deno.test("buildPairedDataset: the rows paired, every PAIR_PROGRESS_ROWS and at the end", () => {
  const n = PAIR_PROGRESS_ROWS + 4_464;
  const attempt = (i: number, reward: number): Attempt => ({
    split: "val",
    task_id: `t${i}`,
    sample_id: 0,
    attempt: 0,
    status: "completed",
    reward,
    rewards: { r_strict: reward },
    success: null,
    injected: [],
    job_seed: null,
    steps: null,
    tokens: null,
    error: null,
    provenance: null,
    line: i + 1,
  });
  const episodes = Array.from(
    { length: n },
    (_, i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 }),
  );
  const input = {
    bare: {
      dir: "b",
      sha256: "0",
      manifest: { run_id: "b", provenance: { reward: { components: ["r_strict"] } } },
      completed: new EpisodeMap(episodes.map((e, i) => [e, attempt(i, 0.25)])),
    },
    gates: [{
      dir: "g",
      plan: { gate_id: "g", stage: "online" as const, budget_k: 1, mask_seed: 1, p_present: 0.5 },
      masked: {
        run_id: "m",
        sha256: "1",
        completed: new EpisodeMap(episodes.map((e, i) => [e, attempt(i, i % 2)])),
      },
    }],
    columns: [{ version_id: "v", slot_id: "s", chunk_id: "c", role: "add" as const }],
    rows: episodes.map((episode, i) => ({ gate: 0, episode, mask: i % 3 === 0 ? ["v"] : [] })),
  };
  const calls: [number, number][] = [];
  const d = buildPairedDataset(input, { onProgress: (done, total) => calls.push([done, total]) });
  deepEqual(calls, [[65_536, n], [n, n]]);
  deepEqual([...d.delta["reward"]!.subarray(0, 3)], [-0.25, 0.75, -0.25]);
  deepEqual(d.delta, buildPairedDataset(input).delta);
});

Deno.test("tidyCsv: the rows of each piece taken, ending at every row; the same text", () => {
  const rows = 20_000;
  const table = {
    name: "t",
    rows,
    columns: [{
      name: "x",
      kind: "f64" as const,
      values: Float64Array.from({ length: rows }, (_, i) => i / 7),
    }],
  };
  const calls: [number, number][] = [];
  const text = [...tidyCsv(table, { onProgress: (done, total) => calls.push([done, total]) })];
  ok(
    calls.length > 2 &&
      calls.every(([done, total], i) => total === rows && (i === 0 || done >= calls[i - 1]![0])),
  );
  deepEqual(calls.at(-1), [rows, rows]);
  // After each piece: the rows it ends with (pieces end at a row's end).
  const lines = text.map((piece) => piece.split("\n").length - 1);
  deepEqual(
    calls.slice(0, -1).map(([done]) => done),
    lines.slice(0, -1).map((_, i) => lines.slice(0, i + 1).reduce((s, l) => s + l, 0) - 1),
  );
  equal(text.join(""), [...tidyCsv(table)].join(""));
});
