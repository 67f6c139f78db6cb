/**
 * `gate sequential` on the demo's cold-start Gate A. Reference numbers:
 * tests/data/sequential_reference.json, made by
 * `python3 scripts/reference/sequential_avlm.py` (numpy.linalg.lstsq on every
 * prefix of the completed masked attempts in trace order, the avlm formulas
 * written out independently, running intersection and maximum, sign
 * certification and selection stability); agreement to 1e-9.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { main } from "../lib/cli/main.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { factorDesign } from "../lib/fit/factor.ts";
import { fitOls } from "../lib/fit/ols.ts";
import { prefixFits } from "../lib/sequential/prefix_fits.ts";
import { rowOrder } from "../lib/sequential/order.ts";
import { maskedLines } from "../lib/sequential/masked_lines.ts";
import { sequentialAnalysis } from "../lib/sequential/sequential.ts";
import { sequentialOfGate } from "../lib/sequential/sequential_gate.ts";
import { GatelabError } from "../lib/core/issue.ts";
import { DEFAULTS } from "../lib/core/defaults.ts";
import { quiet, tempDir, writePooledRounds } from "./fixtures.ts";

const REF = JSON.parse(
  await Deno.readTextFile(new URL("./data/sequential_reference.json", import.meta.url)),
);
const GATE_A = "data/demo/ckpt-a/gate-a";

type Path = Record<string, number | null>;
type RefVersion = Record<string, Path> & { sign_certified_at: number | null; sign: 1 | -1 | null };
type RefMetric = {
  selection_stable_from: number | null;
  selection_at_N: string[];
  versions: Record<string, RefVersion>;
};

const close = (a: number | null, b: number | null, what: string, tol = 1e-9) => {
  if (b === null || a === null) return equal(a, b, what);
  ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
};

Deno.test("sequential paths on Gate A match the numpy reference to 1e-9", async () => {
  const validation = await validateGates([GATE_A]);
  const dataset = validation.dataset!;
  const rows = rowOrder(dataset, "run", { maskedLines: await maskedLines(dataset) });
  const doc = sequentialAnalysis(dataset, rows);
  deepEqual([doc.rows, doc.columns, doc.metrics.reward!.n[0]], [REF.rows, REF.columns, 16]);
  for (const [metric, ref] of Object.entries<RefMetric>(REF.metrics)) {
    const m = doc.metrics[metric]!;
    equal(m.selection_stable_from, ref.selection_stable_from, `${metric} selection_stable_from`);
    deepEqual([...m.selection[m.selection.length - 1]!].sort(), ref.selection_at_N);
    for (const [id, v] of Object.entries(ref.versions)) {
      const got = m.versions[id]!;
      equal(got.sign_certified_at, v.sign_certified_at, `${metric} ${id} sign_certified_at`);
      equal(got.sign, v.sign, `${metric} ${id} sign`);
      for (const n of REF.report_at as number[]) {
        const p = m.n.indexOf(n);
        for (
          const field of [
            "estimate",
            "se",
            "cs_lower",
            "cs_upper",
            "e_value",
            "running_lower",
            "running_upper",
            "running_max_e",
          ] as const
        ) {
          close(
            got[field][p] ?? null,
            v[field]![String(n)] ?? null,
            `${metric} ${id} ${field} at ${n}`,
          );
        }
      }
    }
  }
  // The reward selection at N is the full-gate selection of gate analyze: 2(N - n) rollouts saved.
  const reward = doc.metrics.reward!;
  equal(reward.selection_rollouts_saved, 2 * (400 - reward.selection_stable_from!));
});

Deno.test("sequentialOfGate: the run order read from the traces, then the same fit; too few rows is not_identifiable", async () => {
  const dataset = (await validateGates([GATE_A])).dataset!;
  const rows = rowOrder(dataset, "run", { maskedLines: await maskedLines(dataset) });
  deepEqual(
    await sequentialOfGate(dataset, { command: "x", every: 50 }),
    sequentialAnalysis(dataset, rows, { command: "x", every: 50 }),
  );
  // Gate A has 14 design columns: 15 rows leave one residual degree of freedom.
  const error = await sequentialOfGate({ ...dataset, n: 15 }).then(() => null, (e) => e);
  ok(error instanceof GatelabError);
  deepEqual(error.issues, [{
    code: "not_identifiable",
    message: "15 paired rows leave fewer than 2 residual degrees of freedom for 14 columns",
  }]);
});

Deno.test("prefix fits from accumulated normal equations equal fitOls on each prefix", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.integer({ min: 1, max: 4 }),
      (seed, k) => {
        let state = seed;
        const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
        const n = 4 * k + 8;
        const design = Float64Array.from(
          { length: n * k },
          (_, i) => (i % k === Math.floor(i / k) % k ? 1 : +(next() < 0.5)),
        );
        const y = Float64Array.from({ length: n }, () => next() - 0.5);
        const prefixes = [k + 2, 2 * k + 3, n];
        const fits = prefixFits(design, k, [y], prefixes);
        fits.forEach((fit, p) => {
          const m = prefixes[p]!;
          let ols;
          try {
            ols = fitOls(factorDesign(design.subarray(0, m * k), [m, k]), y.subarray(0, m));
          } catch {
            return equal(fit.coefficients, null);
          }
          if (fit.coefficients === null) return; // QR of X'X is stricter near rank deficiency
          for (let j = 0; j < k; j++) {
            close(fit.coefficients[0]![j]!, ols.coefficients[j]!, "coefficient", 1e-8);
          }
          close(fit.residualVariance![0]! * (m - k), ols.ssr, "ssr", 1e-8);
        });
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("pooled rounds: every order keeps a task's rows together and is a permutation", async () => {
  await using dir = await tempDir();
  const fx = await writePooledRounds(dir.path, { tasks: 12 });
  const validation = await validateGates([fx[0].gateDir, fx[1].gateDir]);
  const dataset = validation.dataset!;
  const lines = await maskedLines(dataset);
  for (const order of ["run", "task", "random"] as const) {
    const rows = rowOrder(dataset, order, { maskedLines: lines, seed: 7 });
    deepEqual([...rows].sort((a, b) => a - b), [...Array(dataset.n).keys()]);
    const seen: number[] = [];
    for (const i of rows) {
      const c = dataset.cluster[i]!;
      if (seen[seen.length - 1] !== c) {
        ok(!seen.includes(c), `${order}: task ${c} split`);
        seen.push(c);
      }
    }
  }
  // Two rounds share one bare run: a stop after the first task saves every
  // masked row after it and the bare rollouts of the other tasks.
  const doc = sequentialAnalysis(dataset, rowOrder(dataset, "task"), { every: 1000 });
  equal(doc.rollouts_total, dataset.n + dataset.n / 2);
});

Deno.test("gate sequential writes its outputs and refuses bad options", async () => {
  await using dir = await tempDir();
  const out = `${dir.path}/seq`;
  equal(
    await quiet(() => main(["sequential", GATE_A, "--out", out, "--every", "25", "--no-png"])),
    0,
  );
  const doc = JSON.parse(await Deno.readTextFile(`${out}/sequential.json`));
  deepEqual([doc.format, doc.order, doc.alpha, doc.phi, doc.metrics.reward.n.slice(-2)], [
    "gatelab.sequential/v1",
    "run",
    0.05,
    1,
    [391, 400],
  ]);
  const files = [...Deno.readDirSync(out)].map((e) => e.name).sort();
  // Funnel and selection per metric, each as SVG, vector PDF (when rsvg-convert may run) and the
  // LaTeX float that includes it.
  const figures = files.filter((f) => f.startsWith("sequential_"));
  deepEqual(figures.filter((f) => f.endsWith(".svg")).length, 14);
  deepEqual(figures.filter((f) => f.endsWith(".tex")).length, 14);
  ok(figures.every((f) => /\.(svg|tex|pdf)$/.test(f)), "no PNG with --no-png");
  ok((await Deno.readTextFile(`${out}/sequential.md`)).includes("fixed-n 95% CI"));
  equal(await quiet(() => main(["sequential", GATE_A, "--out", out, "--alpha", "1"])), 2);
  equal(
    await quiet(() => main(["sequential", `${dir.path}/missing`, "--out", `${dir.path}/bad`])),
    2,
  );
  deepEqual(
    [...Deno.readDirSync(`${dir.path}/bad`)].map((e) => e.name).filter((f) => !f.startsWith(".")),
    ["validation.json"],
  );
});

Deno.test("a random order's seed defaults to DEFAULTS.seed, in the library and on the command line", async () => {
  const dataset = (await validateGates([GATE_A])).dataset!;
  const implicit = await sequentialOfGate(dataset, { order: "random", every: 100 });
  const explicit = await sequentialOfGate(dataset, {
    order: "random",
    seed: DEFAULTS.seed,
    every: 100,
  });
  equal(implicit.seed, DEFAULTS.seed);
  deepEqual(implicit.row_order, explicit.row_order);
  deepEqual(rowOrder(dataset, "random"), rowOrder(dataset, "random", { seed: DEFAULTS.seed }));
  await using dir = await tempDir();
  const out = `${dir.path}/seq`;
  const args = ["sequential", GATE_A, "--order", "random", "--every", "100", "--no-png"];
  equal(await quiet(() => main([...args, "--out", out])), 0);
  const doc = JSON.parse(await Deno.readTextFile(`${out}/sequential.json`));
  deepEqual([doc.seed, doc.row_order], [DEFAULTS.seed, explicit.row_order]);
});
