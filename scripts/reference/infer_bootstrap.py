"""Reference numbers for tests/infer_bootstrap_test.ts.

An independent task bootstrap: the fixture rows are copied per draw (no
count vectors, no per-task sums) and refitted with numpy.linalg.lstsq; the
draws come from the independent Python xoshiro128** of
scripts/reference/prng_xoshiro.py in gatelab's documented order (draw d makes
G calls of next_int(G), G = number of tasks). Also computes the percentile
interval (sorted[floor(q (B - 1))]), the sd with ddof = 1, BCa with
scipy.stats.norm, and selection frequencies under the family-then-top-K rule.

Run: python3 scripts/reference/infer_bootstrap.py > tests/data/reference/infer_bootstrap.json
(scripts/reference/regenerate.sh does; tests/infer_bootstrap_test.ts and
tests/infer_fixture.ts read it).
"""
import json
import math
import os
import sys

import numpy as np
from scipy.stats import norm

sys.path.insert(0, os.path.dirname(__file__))
from prng_xoshiro import Xoshiro128ss  # noqa: E402


def next_int(rng, n):
    limit = (1 << 32) - ((1 << 32) % n)
    x = rng.next_uint32()
    while x >= limit:
        x = rng.next_uint32()
    return x % n


def fixture():
    # 3 columns: a (add), s@old, s@new (one REWRITE family: never both present).
    rng = np.random.default_rng(20260927)
    rows = []
    task = 0
    while len(rows) < 30:
        reps = 2 if task % 4 == 0 else 1  # every 4th task has two pooled rows
        for _ in range(reps):
            a = int(rng.random() < 0.5)
            s = int(rng.integers(0, 3))  # 0 absent, 1 old, 2 new
            x = [a, int(s == 1), int(s == 2)]
            reward = 0.10 * x[0] + 0.05 * x[1] + 0.12 * x[2] + rng.normal(0, 0.1)
            rows.append({"task": task, "x": x, "reward": round(float(reward), 6),
                         "r_x": round(float(0.5 * reward + rng.normal(0, 0.02)), 6)})
        task += 1
    return rows, task


def fit(x, y):
    return np.linalg.lstsq(x, y, rcond=None)[0]


def select(alpha, k):
    # family (s@old, s@new): higher wins, tie keeps old; then positive top-k by alpha, ties by id
    ids = ["a", "s@new", "s@old"]
    a, old, new = alpha
    survivors = [("a", a), ("s@new", new) if new > old else ("s@old", old)]
    survivors.sort(key=lambda t: (-t[1], t[0]))
    return {v for i, (v, al) in enumerate(survivors) if i < k and al > 0}, ids


def main():
    rows, g = fixture()
    x = np.array([r["x"] for r in rows], float)
    y = np.array([[r["reward"], r["r_x"]] for r in rows])
    task = np.array([r["task"] for r in rows])
    point = fit(x, y)
    rng = Xoshiro128ss(11)
    B = 400
    draws = np.empty((B, 3, 2))
    for d in range(B):
        picks = [next_int(rng, g) for _ in range(g)]
        idx = np.concatenate([np.flatnonzero(task == t) for t in picks])
        draws[d] = fit(x[idx], y[idx])
    out = {"rows": rows, "tasks": g, "point": point.T.tolist(), "first_draws_reward": draws[:3, :, 0].tolist()}
    summary = {}
    jack = np.array([fit(x[task != t], y[task != t]) for t in range(g)])  # (g, 3, 2)
    for mi, metric in enumerate(["reward", "r_x"]):
        per = {}
        for j, vid in enumerate(["a", "s@old", "s@new"]):
            s = np.sort(draws[:, j, mi])
            lo, hi = s[math.floor(0.025 * (B - 1))], s[math.floor(0.975 * (B - 1))]
            est = point[j, mi]
            z0 = norm.ppf(np.mean(s < est))
            jk = jack[:, j, mi]
            dd = jk.mean() - jk
            acc = (dd ** 3).sum() / (6 * ((dd ** 2).sum()) ** 1.5)
            def adj(q):
                zq = norm.ppf(q)
                return norm.cdf(z0 + (z0 + zq) / (1 - acc * (z0 + zq)))
            bca = [s[math.floor(adj(0.025) * (B - 1))], s[math.floor(adj(0.975) * (B - 1))]]
            per[vid] = {"estimate": est, "se": float(np.std(s, ddof=1)), "ci": [lo, hi], "bca": bca}
        summary[metric] = per
    out["summary"] = summary
    point_sel, _ = select(point[:, 0], 1)
    freq = {"a": 0, "s@old": 0, "s@new": 0}
    equal = 0
    for d in range(B):
        sel, _ = select(draws[d, :, 0], 1)
        for v in sel:
            freq[v] += 1
        equal += sel == point_sel
    out["stability_k1"] = {"point": sorted(point_sel), "freq": {k: v / B for k, v in freq.items()}, "set_equal": equal / B}
    print(json.dumps(out, default=float))


if __name__ == "__main__":
    main()
