/**
 * The committed demo gates validate clean, and the paired dataset agrees
 * with an independent pandas/numpy pairing of the same files.
 *
 * Reference numbers: `python3 scripts/reference/validate_demo_pairing.py`
 * (pandas merge of completed attempts on (split, task_id, sample_id),
 * numpy matrix_rank) writes tests/data/reference/validate_demo_pairing.json
 * (through scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok } from "node:assert/strict";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { designRank } from "../lib/validate/rank.ts";
import { referenceJson } from "./reference_data.ts";

interface PairingReference {
  readonly n: number;
  readonly columns: readonly string[];
  readonly presence: readonly number[];
  readonly rank: number;
  readonly delta_mean: Readonly<Record<string, number>>;
  readonly delta_sumsq: Readonly<Record<string, number>>;
}

const REFERENCE = await referenceJson<Record<"gate-a" | "online-pooled", PairingReference>>(
  "validate_demo_pairing",
);

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

for (
  const [name, dirs] of [
    ["gate-a", ["data/demo/ckpt-a/gate-a"]],
    ["online-pooled", ["data/demo/ckpt-b/gate-online-r1", "data/demo/ckpt-b/gate-online-r2"]],
  ] as const
) {
  Deno.test(`demo ${name}: clean, and paired deltas match the pandas reference`, async () => {
    const ref = REFERENCE[name];
    const v = await validateGates(dirs);
    deepEqual(v.issues, []);
    const d = v.dataset!;
    deepEqual(d.n, ref.n);
    deepEqual(d.metrics, Object.keys(ref.delta_mean));
    deepEqual(d.columns.map((c) => c.version_id), ref.columns);
    const rank = designRank(d.design, d.n, d.k);
    deepEqual([...rank.presence], [...ref.presence]);
    deepEqual(rank.rank, ref.rank);
    for (const m of d.metrics) {
      const x = d.delta[m]!;
      const mean = x.reduce((a, b) => a + b, 0) / x.length;
      const sumsq = x.reduce((a, b) => a + b * b, 0);
      ok(close(mean, ref.delta_mean[m]!), `${m} mean ${mean}`);
      ok(close(sumsq, ref.delta_sumsq[m]!), `${m} sumsq ${sumsq}`);
    }
  });
}
