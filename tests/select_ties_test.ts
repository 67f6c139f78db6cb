/**
 * Exact ties and exact zeros in the selection rule are decided by the tie tolerance of the solve,
 * never by rounding: permuting the rows of a gate never changes the selection.
 *
 * The designs plant exact ties: every base row appears twice, with errors +c and -c, so X'e = 0
 * and the exact least-squares solution is the planted beta. All numbers are dyadic rationals, so
 * y is exact in floating point and the ties (old = new, c1 = c2) and the zero (c3) hold in exact
 * arithmetic; only the Householder solve rounds, and its rounding depends on the row order.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import type { PairedDataset } from "../lib/core/types.ts";
import { analyzeDataset } from "../lib/analyze/analyze.ts";

const COLUMNS = [
  { version_id: "s1@old", slot_id: "s1", chunk_id: "s1", role: "old" as const },
  { version_id: "s1@new", slot_id: "s1", chunk_id: "s1b", role: "new" as const },
  { version_id: "c1", slot_id: "c1", chunk_id: "c1", role: "add" as const },
  { version_id: "c2", slot_id: "c2", chunk_id: "c2", role: "add" as const },
  { version_id: "c3", slot_id: "c3", chunk_id: "c3", role: "add" as const },
  { version_id: "c4", slot_id: "c4", chunk_id: "c4", role: "add" as const },
];
/** old = new (tie keeps old), c1 = c2 (tie at the budget edge: c1 by id), c3 = 0, c4 < 0. */
const BETA = [0.375, 0.375, 0.15625, 0.15625, 0, -0.21875];

function dataset(rows: readonly number[][], y: readonly number[], budgetK: number): PairedDataset {
  const n = rows.length, k = COLUMNS.length;
  const design = Uint8Array.from(rows.flat());
  const delta = Float64Array.from(y);
  return {
    baseline: { run_id: "bare", run_dir: "bare", sha256: "0".repeat(64) },
    gates: [{
      gate_id: "g",
      gate_dir: "g",
      stage: "online",
      budget_k: budgetK,
      mask_seed: 1,
      p_present: 0.5,
      masked: { run_id: "m", run_dir: "m", sha256: "0".repeat(64) },
    }],
    columns: COLUMNS,
    metrics: ["reward"],
    n,
    k,
    design,
    masked: { reward: delta },
    bare: { reward: new Float64Array(n) },
    delta: { reward: delta },
    episodes: rows.map((_, i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 })),
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from(rows, (_, i) => i),
    clusterCount: n,
  } as unknown as PairedDataset;
}

/** A base row: slot s1 none / old / new, and c1..c4 present or not. */
const baseRow = fc.tuple(
  fc.integer({ min: 0, max: 2 }),
  fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 4, maxLength: 4 }),
).map(([s, c]) => [s === 1 ? 1 : 0, s === 2 ? 1 : 0, ...c]);

const gate = fc.record({
  base: fc.array(baseRow, { minLength: 10, maxLength: 24 }),
  // Errors c = m / 64, m in 1..63: exact in binary, so y = x'beta +- c is exact.
  errors: fc.array(fc.integer({ min: 1, max: 63 }), { minLength: 24, maxLength: 24 }),
  keys: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 48, maxLength: 48 }),
  budgetK: fc.constantFrom(2, 4),
});

function rowsOf(g: { base: number[][]; errors: number[] }) {
  const rows: number[][] = [], y: number[] = [];
  g.base.forEach((r, i) => {
    const fitted = r.reduce((s, v, j) => s + v * BETA[j]!, 0);
    const c = g.errors[i]! / 64;
    rows.push(r, r);
    y.push(fitted + c, fitted - c);
  });
  return { rows, y };
}

function selectionOf(rows: number[][], y: number[], budgetK: number) {
  const a = analyzeDataset(dataset(rows, y, budgetK), { command: "test" });
  return {
    selected: a.selection.selected,
    status: a.selection.decisions.map((d) => d.status),
    tau: a.selection.tie_tolerance,
  };
}

function fullRank(rows: number[][]): boolean {
  // Every column present somewhere and the 6 x 6 Gram matrix nonsingular (Gaussian elimination on the integer Gram matrix).
  const k = COLUMNS.length;
  const g = Array.from(
    { length: k },
    (_, a) => Array.from({ length: k }, (_, b) => rows.reduce((s, r) => s + r[a]! * r[b]!, 0)),
  );
  for (let c = 0; c < k; c++) {
    const p = g.findIndex((row, r) => r >= c && Math.abs(row[c]!) > 1e-9);
    if (p < 0) return false;
    [g[c], g[p]] = [g[p]!, g[c]!];
    for (let r = c + 1; r < k; r++) {
      const f = g[r]![c]! / g[c]![c]!;
      for (let j = c; j < k; j++) g[r]![j] = g[r]![j]! - f * g[c]![j]!;
    }
  }
  return true;
}

Deno.test("select ties: permuting the rows of a gate never changes the selection (planted exact ties)", () => {
  fc.assert(
    fc.property(gate, (g) => {
      const { rows, y } = rowsOf(g);
      fc.pre(fullRank(rows));
      const order = rows.map((_, i) => i).sort((a, b) => g.keys[a]! - g.keys[b]! || a - b);
      const base = selectionOf(rows, y, g.budgetK);
      const permuted = selectionOf(order.map((i) => rows[i]!), order.map((i) => y[i]!), g.budgetK);
      deepEqual(permuted.selected, base.selected);
      deepEqual(permuted.status, base.status);
      // The rule itself: the tie keeps old, c1 wins the tie with c2 by id, c3 (exactly 0) and c4
      // are never selected.
      deepEqual(
        base.selected,
        g.budgetK === 2 ? ["s1@old", "c1"] : ["s1@old", "c1", "c2"],
      );
      deepEqual(base.status.slice(0, 2), ["selected", "rewrite_loser"]);
      deepEqual(base.status.slice(4), ["non_positive", "non_positive"]);
      ok(base.tau > 0 && base.tau < 1e-10, `tau ${base.tau}`);
    }),
    { numRuns: 150, seed: 20260927 },
  );
});
