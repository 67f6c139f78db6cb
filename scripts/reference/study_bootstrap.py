"""Reference numbers for tests/study_bootstrap_test.ts.

An independent numpy re-implementation of the study statistics of docs/study.md
(nested mean, bounds, crossed seeds x tasks percentile bootstrap), driven by
the same random index stream: the Python xoshiro128** of prng_xoshiro.py
with the documented draw order (per draw K next_int(K) for seeds, then
N next_int(N) for tasks; tasks only when each arm has one seed). The draw
statistic is computed here by explicit fancy indexing of the full
seeds* x tasks* x reps array, not by the count arithmetic gatelab uses.

Fixture outcomes come from numpy's legacy RandomState(7); the test reads
them and the reference numbers from the JSON this writes. Run:
    python3 scripts/reference/study_bootstrap.py > tests/data/reference/study_bootstrap.json
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from prng_xoshiro import Xoshiro128ss  # noqa: E402


def percentile_interval(draws):
    s = np.sort(np.asarray(draws))
    b = len(s)
    return [float(s[math.floor(0.025 * (b - 1))]), float(s[math.floor(0.975 * (b - 1))])]


def bootstrap(ya, yb, draws, seed, resample_seeds):
    """ya, yb: arrays K x N x R of 0/1 outcomes of the two arms."""
    k, n, _ = ya.shape
    g = Xoshiro128ss(seed)
    out = np.empty(draws)
    for b in range(draws):
        si = [g.next_int(k) for _ in range(k)] if resample_seeds else list(range(k))
        ti = [g.next_int(n) for _ in range(n)]
        sub_a = ya[np.ix_(si, ti)]  # K* x N* x R, all reps of each sampled cell
        sub_b = yb[np.ix_(si, ti)]
        out[b] = sub_a.mean(axis=2).mean(axis=1).mean() - sub_b.mean(axis=2).mean(axis=1).mean()
    return out


rs = np.random.RandomState(7)
# Crossed fixture: 3 seeds x 6 tasks x 2 reps per arm.
M = (rs.uniform(size=(3, 6, 2)) < 0.6).astype(int)
B = (rs.uniform(size=(3, 6, 2)) < 0.4).astype(int)
# Tasks-only fixture: 1 seed x 8 tasks x 3 reps per arm.
E = (rs.uniform(size=(1, 8, 3)) < 0.5).astype(int)
F = (rs.uniform(size=(1, 8, 3)) < 0.3).astype(int)

res = {
    "M": M.tolist(), "B": B.tolist(), "E": E.tolist(), "F": F.tolist(),
    "estimate_M": M.mean(axis=2).mean(axis=1).mean(),
    "estimate_B": B.mean(axis=2).mean(axis=1).mean(),
    "estimate_E": E.mean(), "estimate_F": F.mean(),
}
d = bootstrap(M, B, 2000, 20260927, True)
res["M_minus_B_ci_2000_seed20260927"] = percentile_interval(d)
res["M_minus_B_first_draws"] = d[:3].tolist()
d = bootstrap(E, F, 2000, 5, False)
res["E_minus_F_ci_2000_seed5"] = percentile_interval(d)
res["E_minus_F_first_draws"] = d[:3].tolist()
print(json.dumps(res, indent=1, sort_keys=True))
