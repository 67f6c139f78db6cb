/**
 * The committed demo gates validate clean, and the paired dataset agrees
 * with an independent pandas/numpy pairing of the same files.
 *
 * Reference numbers: `python3 scripts/reference/validate_demo_pairing.py`
 * (pandas merge of completed attempts on (split, task_id, sample_id),
 * numpy matrix_rank), pasted below. If the demo data is regenerated, rerun
 * the script and paste again.
 */
import { deepEqual, ok } from "node:assert/strict";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { designRank } from "../lib/validate/rank.ts";

const REFERENCE = {
  "gate-a": {
    n: 400,
    presence: [195, 204, 203, 208, 213, 185, 201, 227, 190, 185, 196, 197, 208, 197],
    rank: 14,
    delta_mean: {
      reward: 0.29441649999999997,
      r_strict: 0.29441649999999997,
      r_success: 0.3975,
      r_type: 0.0875,
      r_attr: 0.27729175,
      r_option: 0.26500250000000003,
      r_price: 0.255,
    },
    delta_sumsq: {
      reward: 83.97921238,
      r_strict: 83.97921238,
      r_success: 181.0,
      r_type: 50.0,
      r_attr: 93.31283341,
      r_option: 110.27868902,
      r_price: 158.0,
    },
  },
  "online-pooled": {
    n: 800,
    presence: [390, 396, 369, 394, 418, 417, 388, 183, 195, 136, 139, 124],
    rank: 12,
    delta_mean: {
      reward: 0.099511,
      r_strict: 0.099511,
      r_success: 0.14375,
      r_type: 0.020625,
      r_attr: 0.09520812500000002,
      r_option: 0.11458375,
      r_price: 0.1025,
    },
    delta_sumsq: {
      reward: 111.0271875,
      r_strict: 111.0271875,
      r_success: 273.0,
      r_type: 113.75,
      r_attr: 146.75106683,
      r_option: 177.4457558,
      r_price: 278.0,
    },
  },
} as const;

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
    const rank = designRank(d.design, d.n, d.k);
    deepEqual([...rank.presence], [...ref.presence]);
    deepEqual(rank.rank, ref.rank);
    for (const m of d.metrics) {
      const x = d.delta[m]!;
      const mean = x.reduce((a, b) => a + b, 0) / x.length;
      const sumsq = x.reduce((a, b) => a + b * b, 0);
      ok(close(mean, ref.delta_mean[m as keyof typeof ref.delta_mean]), `${m} mean ${mean}`);
      ok(close(sumsq, ref.delta_sumsq[m as keyof typeof ref.delta_sumsq]), `${m} sumsq ${sumsq}`);
    }
  });
}
