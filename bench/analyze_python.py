"""The Python side of the end-to-end benchmark (`deno task bench`): the work
of `gate analyze --bootstrap 10000` on one gate, done with pandas +
statsmodels + numpy.

Loads each gate's JSONL (gate.json, assignments, masked traces, bare
traces; several gates on one bare run are pooled rounds) with pandas, keeps completed attempts, pairs masked and bare by
(split, task_id, sample_id), builds the 0/1 design from the assignments,
fits the no-intercept OLS with HC3 for `reward` and every component
(statsmodels), selects positive top-K, and runs a 10,000-draw task bootstrap
for all metrics with numpy's vectorised form (count matrix over tasks
times per-task sums of the row outer products, in blocks of draws, batched
solve) with percentile intervals. Writes nothing;
prints one JSON line with the wall time of the work (imports included
separately).

Usage: python3 bench/analyze_python.py <gate_dir>... [--draws 10000] [--seed 1] [--unset-openblas-env]
"""
import argparse
import json
import os
import time

T_START = time.perf_counter()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("gate_dirs", nargs="+")
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
    keys = ["split", "task_id", "sample_id"]

    def traces(run_dir):
        df = pd.read_json(os.path.join(run_dir, "traces.jsonl"), lines=True)
        df = df[df["status"] == "completed"]
        rewards = pd.json_normalize(df["rewards"].tolist())
        rewards.index = df.index
        out = pd.concat([df[keys], df[["reward"]], rewards], axis=1)
        return out.set_index(keys)

    bare_cache = {}
    xs, ys, task_keys = [], [], []
    columns = None
    for gate_dir in args.gate_dirs:
        with open(os.path.join(gate_dir, "gate.json")) as f:
            gate = json.load(f)
        bare_dir = os.path.normpath(os.path.join(gate_dir, gate["bare_run_dir"]))
        columns = [v["version_id"] for s in gate["slots"] for v in s["versions"]]
        slot_of = {v["version_id"]: s["slot_id"] for s in gate["slots"] for v in s["versions"]}
        masked = traces(gate_dir)
        if bare_dir not in bare_cache:
            bare_cache[bare_dir] = traces(bare_dir)
        bare = bare_cache[bare_dir]
        assign = pd.read_json(os.path.join(gate_dir, "assignments.jsonl"), lines=True)
        slots = pd.json_normalize(assign["slots"].tolist())
        design = pd.DataFrame({c: (slots[slot_of[c]] == c).astype(float) for c in columns})
        design.index = pd.MultiIndex.from_frame(assign[keys])
        paired = masked.join(bare, lsuffix="_m", rsuffix="_b", how="inner")
        metrics = ["reward"] + [c for c in masked.columns if c != "reward"]
        delta = pd.DataFrame({m: paired[m + "_m"] - paired[m + "_b"] for m in metrics})
        design = design.loc[delta.index]
        xs.append(design.to_numpy())
        ys.append(delta.to_numpy())
        idx = delta.index.to_frame(index=False)
        task_keys.append(idx["split"] + "\x00" + idx["task_id"])
    x = np.vstack(xs)
    y = np.vstack(ys)
    task_of_row, task_names = pd.factorize(pd.concat(task_keys, ignore_index=True))
    fits = {}
    for j, m in enumerate(metrics):
        res = sm.OLS(y[:, j], x).fit(cov_type="HC3")
        fits[m] = {"beta": res.params.tolist(), "se_hc3": res.bse.tolist()}
    beta = np.array(fits["reward"]["beta"])
    order = [j for j in np.argsort(-beta, kind="stable") if beta[j] > 0][: gate["budget_k"]]
    n, k = x.shape
    g = len(task_names)
    b = args.draws
    se = lo = hi = np.full((k, len(metrics)), np.nan)
    if b > 0:
        # Task bootstrap: per-task sums of the row outer products and x*y,
        # then counts over tasks times those sums, in blocks of draws that
        # keep the count matrix near 256 MB.
        rng = np.random.default_rng(args.seed)
        outer = np.zeros((g, k * k))
        np.add.at(outer, task_of_row, (x[:, :, None] * x[:, None, :]).reshape(n, k * k))
        xy = np.zeros((g, k * len(metrics)))
        np.add.at(xy, task_of_row, (x[:, :, None] * y[:, None, :]).reshape(n, k * len(metrics)))
        block = max(1, min(b, (1 << 25) // g))
        draws = np.empty((b, k, len(metrics)))
        for d0 in range(0, b, block):
            bb = min(block, b - d0)
            idx = rng.integers(0, g, size=(bb, g))
            counts = np.bincount((idx + (np.arange(bb) * g)[:, None]).ravel(),
                                 minlength=bb * g).reshape(bb, g).astype(float)
            xtx = (counts @ outer).reshape(bb, k, k)
            xty = (counts @ xy).reshape(bb, k, len(metrics))
            draws[d0:d0 + bb] = np.linalg.solve(xtx, xty)
        se = draws.std(axis=0, ddof=1)
        s = np.sort(draws, axis=0)
        lo, hi = s[int(np.floor(0.025 * (b - 1)))], s[int(np.floor(0.975 * (b - 1)))]
    t_end = time.perf_counter()
    print(json.dumps({"side": "python", "work_ms": (t_end - t_imported) * 1000,
                      "imports_ms": (t_imported - T_START) * 1000, "rows": int(n), "columns": int(k),
                      "metrics": len(metrics), "draws": b, "tasks": int(g), "selected": [columns[j] for j in order],
                      "se_boot_first": float(se[0, 0]), "ci_first": [float(lo[0, 0]), float(hi[0, 0])]}))


if __name__ == "__main__":
    main()
