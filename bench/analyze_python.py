"""The Python side of the end-to-end benchmark (`deno task bench`): the work
of `gate analyze --bootstrap 10000` on one gate, done with pandas +
statsmodels + numpy.

Loads the gate's JSONL (gate.json, assignments, masked traces, bare traces)
with pandas, keeps completed attempts, pairs masked and bare by
(split, task_id, sample_id), builds the 0/1 design from the assignments,
fits the no-intercept OLS with HC3 for `reward` and every component
(statsmodels), selects positive top-K, and runs a 10,000-draw task bootstrap
for all metrics with numpy's vectorised form (count matrix times per-row
outer products, batched solve) with percentile intervals. Writes nothing;
prints one JSON line with the wall time of the work (imports included
separately).

Usage: python3 bench/analyze_python.py <gate_dir> [--draws 10000] [--seed 1] [--unset-openblas-env]
"""
import argparse
import json
import os
import time

T_START = time.perf_counter()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("gate_dir")
    ap.add_argument("--draws", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--unset-openblas-env", action="store_true")
    args = ap.parse_args()
    if args.unset_openblas_env:
        for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            os.environ.pop(name, None)
    import numpy as np
    import pandas as pd
    import statsmodels.api as sm

    t_imported = time.perf_counter()
    gate_dir = args.gate_dir
    with open(os.path.join(gate_dir, "gate.json")) as f:
        gate = json.load(f)
    bare_dir = os.path.normpath(os.path.join(gate_dir, gate["bare_run_dir"]))
    columns = [v["version_id"] for s in gate["slots"] for v in s["versions"]]
    slot_of = {v["version_id"]: s["slot_id"] for s in gate["slots"] for v in s["versions"]}
    keys = ["split", "task_id", "sample_id"]

    def traces(run_dir):
        df = pd.read_json(os.path.join(run_dir, "traces.jsonl"), lines=True)
        df = df[df["status"] == "completed"]
        rewards = pd.json_normalize(df["rewards"].tolist())
        rewards.index = df.index
        out = pd.concat([df[keys], df[["reward"]], rewards], axis=1)
        return out.set_index(keys)

    masked = traces(gate_dir)
    bare = traces(bare_dir)
    assign = pd.read_json(os.path.join(gate_dir, "assignments.jsonl"), lines=True)
    slots = pd.json_normalize(assign["slots"].tolist())
    design = pd.DataFrame({c: (slots[slot_of[c]] == c).astype(float) for c in columns})
    design.index = pd.MultiIndex.from_frame(assign[keys])
    paired = masked.join(bare, lsuffix="_m", rsuffix="_b", how="inner")
    metrics = ["reward"] + [c for c in masked.columns if c != "reward"]
    delta = pd.DataFrame({m: paired[m + "_m"] - paired[m + "_b"] for m in metrics})
    design = design.loc[delta.index]
    x = design.to_numpy()
    y = delta.to_numpy()
    fits = {}
    for j, m in enumerate(metrics):
        res = sm.OLS(y[:, j], x).fit(cov_type="HC3")
        fits[m] = {"beta": res.params.tolist(), "se_hc3": res.bse.tolist()}
    beta = np.array(fits["reward"]["beta"])
    order = [j for j in np.argsort(-beta, kind="stable") if beta[j] > 0][: gate["budget_k"]]
    # Task bootstrap: one row per task here (repeats 1), counts over tasks.
    n, k = x.shape
    rng = np.random.default_rng(args.seed)
    b = args.draws
    idx = rng.integers(0, n, size=(b, n))
    counts = np.bincount((idx + (np.arange(b) * n)[:, None]).ravel(), minlength=b * n).reshape(b, n).astype(float)
    outer = (x[:, :, None] * x[:, None, :]).reshape(n, k * k)
    xy = (x[:, :, None] * y[:, None, :]).reshape(n, k * len(metrics))
    xtx = (counts @ outer).reshape(b, k, k)
    xty = (counts @ xy).reshape(b, k, len(metrics))
    draws = np.linalg.solve(xtx, xty)
    se = draws.std(axis=0, ddof=1)
    s = np.sort(draws, axis=0)
    lo, hi = s[int(np.floor(0.025 * (b - 1)))], s[int(np.floor(0.975 * (b - 1)))]
    t_end = time.perf_counter()
    print(json.dumps({"side": "python", "work_ms": (t_end - t_imported) * 1000,
                      "imports_ms": (t_imported - T_START) * 1000, "rows": int(n), "columns": int(k),
                      "metrics": len(metrics), "draws": b, "selected": [columns[j] for j in order],
                      "se_boot_first": float(se[0, 0]), "ci_first": [float(lo[0, 0]), float(hi[0, 0])]}))


if __name__ == "__main__":
    main()
