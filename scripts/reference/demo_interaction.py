"""Reference numbers for tests/demo_interaction_test.ts: the interaction
screen on the committed demo Gate A, computed with statsmodels only.

Reads data/demo/ckpt-a/gate-a (gate.json, assignments.jsonl, traces.jsonl)
and its bare run (../bare-val), pairs completed attempts by
(split, task_id, sample_id), and for the metric given (default: reward and
every component):

1. the planted pair: OLS of the paired delta R_i - B_i on the 14 chunk
   columns plus the single product column
   C_inspection x C_comparison, no intercept, `cov_type="HC3"`; the
   product coefficient, its HC3 se and the Wald F test
   (`wald_test(..., use_f=True)`: F(1, n - 15));
2. the same for all 91 pairs, Holm over the 91 p-values
   (`multipletests(method="holm")`), the rank of the planted pair and every
   pair with Holm-adjusted p < 0.05.

Run from the repository root:
    python3 scripts/reference/demo_interaction.py [data/demo] [metric ...]
With --json it prints, per metric, the planted pair's numbers, its rank, the
Holm-flagged pairs and the best other pair's Holm p as JSON;
scripts/reference/regenerate.sh writes that to
tests/data/reference/demo_interaction.json, which
tests/demo_interaction_test.ts reads.
"""
import itertools
import json
import sys
from pathlib import Path

import numpy as np
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests

PAIR = ("candidate-inspection.v1", "candidate-comparison.v1")
METRICS = ["reward", "r_strict", "r_success", "r_type", "r_attr", "r_option", "r_price"]


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def completed(run_dir):
    return {
        (t["split"], t["task_id"], t["sample_id"]): t
        for t in read_jsonl(Path(run_dir) / "traces.jsonl")
        if t["status"] == "completed"
    }


def gate_rows(gate_dir, metric):
    gate = json.loads((gate_dir / "gate.json").read_text())
    bare = completed((gate_dir / gate["bare_run_dir"]).resolve())
    masked = completed(gate_dir)
    cols = [(s["slot_id"], v["version_id"]) for s in gate["slots"] for v in s["versions"]]
    get = (lambda t: t["reward"]) if metric == "reward" else (lambda t: t["rewards"][metric])
    X, y = [], []
    for a in read_jsonl(gate_dir / "assignments.jsonl"):
        key = (a["split"], a["task_id"], a["sample_id"])
        X.append([1.0 if a["slots"][s] == v else 0.0 for s, v in cols])
        y.append(get(masked[key]) - get(bare[key]))
    return [v for _, v in cols], np.array(X), np.array(y)


def product_test(X, y, i, j):
    xx = np.column_stack([X, X[:, i] * X[:, j]])
    res = sm.OLS(y, xx).fit(cov_type="HC3")
    k = xx.shape[1]
    w = res.wald_test(np.eye(k)[k - 1:k], use_f=True, scalar=True)
    return float(res.params[-1]), float(res.bse[-1]), float(w.statistic), float(w.pvalue), float(w.df_denom)


def main_json(root):
    doc = {"generated_by": "python3 scripts/reference/demo_interaction.py data/demo --json "
                           "(statsmodels OLS + product column, HC3, wald_test(use_f=True), "
                           "multipletests(method='holm'))",
           "metrics": {}}
    for metric in METRICS:
        names, X, y = gate_rows(root / "ckpt-a/gate-a", metric)
        pairs = list(itertools.combinations(range(len(names)), 2))
        tests = [product_test(X, y, i, j) for i, j in pairs]
        holm = multipletests([t[3] for t in tests], method="holm")[1]
        target = pairs.index((names.index(PAIR[0]), names.index(PAIR[1])))
        order = sorted(range(len(pairs)), key=lambda q: tests[q][3])
        g, se, f, p, df2 = tests[target]
        second = order[1] if order[0] == target else order[0]
        doc["metrics"][metric] = {
            "pairs": len(pairs), "df2": df2,
            "gamma": g, "se": se, "f": f, "p": p, "holm": float(holm[target]),
            "rank": order.index(target) + 1,
            "flagged": [f"{names[pairs[q][0]]} x {names[pairs[q][1]]}" for q in order if holm[q] < 0.05],
            "best_other_holm": float(holm[second]),
        }
    print(json.dumps(doc, indent=1))


def main():
    args = [a for a in sys.argv[1:] if a != "--json"]
    root = Path(args[0] if args else "data/demo")
    if "--json" in sys.argv:
        return main_json(root)
    metrics = args[1:] or METRICS
    truth = json.loads((root / "truth.json").read_text())
    expected = truth["gate_a"]["interaction"]["expected_product_coefficient"]
    print(f"statsmodels {sm.__version__ if hasattr(sm, '__version__') else ''}".strip())
    for metric in metrics:
        names, X, y = gate_rows(root / "ckpt-a/gate-a", metric)
        pairs = list(itertools.combinations(range(len(names)), 2))
        tests = [product_test(X, y, i, j) for i, j in pairs]
        holm = multipletests([t[3] for t in tests], method="holm")[1]
        target = pairs.index((names.index(PAIR[0]), names.index(PAIR[1])))
        order = sorted(range(len(pairs)), key=lambda q: tests[q][3])
        g, se, f, p, df2 = tests[target]
        flagged = [f"{names[pairs[q][0]]} x {names[pairs[q][1]]} (holm {holm[q]:.6g})"
                   for q in order if holm[q] < 0.05]
        print(f"\n{metric} (n={len(y)}, {len(pairs)} pairs, HC3, F(1, {df2:.0f}))")
        print(f"  planted pair: gamma {g:.6f} se {se:.6f} F {f:.6f} p {p:.6e} holm {holm[target]:.6e} "
              f"rank {order.index(target) + 1}; truth expected gamma {expected[metric]}")
        second = order[1] if order[0] == target else order[0]
        print(f"  best other pair: {names[pairs[second][0]]} x {names[pairs[second][1]]} "
              f"p {tests[second][3]:.6e} holm {holm[second]:.6e}")
        print(f"  flagged (holm < 0.05): {flagged if flagged else 'none'}")


if __name__ == "__main__":
    main()
