"""Reference numbers for tests/infer_heldout_test.ts.

Re-implements the held-out plan independently: the tasks of the fixture of
scripts/reference/infer_bootstrap.py are permuted by Fisher-Yates with the
independent Python xoshiro128** (i = G-1..1 swaps with next_int(i+1)), folds
by permuted position mod folds; each part is refitted with
numpy.linalg.lstsq on its rows; rank agreement with scipy.stats.spearmanr
and scipy.stats.kendalltau (tau-b); selection = family winner (tie keeps
old) then positive top-K; gains = sums over the fit part's selection.

Run: python3 scripts/reference/infer_heldout.py > tests/data/reference/infer_heldout.json
(scripts/reference/regenerate.sh does; tests/infer_heldout_test.ts reads it).
"""
import json
import os
import sys

import numpy as np
from scipy.stats import kendalltau, spearmanr

sys.path.insert(0, os.path.dirname(__file__))
from infer_bootstrap import fixture, next_int, select  # noqa: E402
from prng_xoshiro import Xoshiro128ss  # noqa: E402


def main():
    rows, g = fixture()
    x = np.array([r["x"] for r in rows], float)
    y = np.array([r["reward"] for r in rows])
    task = np.array([r["task"] for r in rows])
    ids = ["a", "s@old", "s@new"]
    rng = Xoshiro128ss(5)
    out = []
    folds, repeats, k = 3, 2, 1
    for rep in range(repeats):
        perm = list(range(g))
        for i in range(g - 1, 0, -1):
            j = next_int(rng, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        for f in range(folds):
            held_tasks = {perm[t] for t in range(g) if t % folds == f}
            held = np.isin(task, list(held_tasks))
            bf = np.linalg.lstsq(x[~held], y[~held], rcond=None)[0]
            bh = np.linalg.lstsq(x[held], y[held], rcond=None)[0]
            sf, _ = select(bf, k)
            sh, _ = select(bh, k)
            idx = [ids.index(v) for v in sf]
            out.append({"repeat": rep, "fold": f, "spearman": float(spearmanr(bf, bh).statistic),
                        "kendall": float(kendalltau(bf, bh).statistic),
                        "selected_fit": sorted(sf), "selected_heldout": sorted(sh),
                        "overlap": len(sf & sh),
                        "gain_predicted": float(bf[idx].sum()), "gain_realised": float(bh[idx].sum())})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
