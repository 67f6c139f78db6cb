"""Reference numbers for tests/reward_recipes_test.ts.

Writes a small steps/groups/PRM-weights fixture (numpy RandomState(11)) to
tests/snapshots/reward_fixture/ and computes, independently of gatelab:
  * rewards per trajectory (docs/reward.md) for recipes A, B, C (C with the fixture
    PRM weights) with the FORMAT section 4 masking rules;
  * the good-minus-bad group mean difference per recipe and its percentile
    interval from a within-group bootstrap driven by the Python
    xoshiro128** of prng_xoshiro.py (per draw n_good next_int(n_good) then
    n_bad next_int(n_bad), members in groups.jsonl order), ends at sorted
    index floor(q (B - 1));
  * Spearman's rho of reward against the reference with
    scipy.stats.spearmanr (average ranks for ties).
The numbers go to tests/snapshots/reward_fixture/reference.json.
Run: python3 scripts/reference/reward_recipes.py
"""
import json
import math
import os
import sys

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, os.path.dirname(__file__))
from prng_xoshiro import Xoshiro128ss  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "snapshots", "reward_fixture")
MAP = {4: 1.0, 3: 0.85, 2: 0.6, 1: 0.3, 0: 0.0}

rs = np.random.RandomState(11)
steps, groups, weights = [], [], {}
for t in range(24):
    tid = f"tr-{t:02d}"
    good = t < 12
    session = t % 3 == 0
    n = int(rs.randint(2, 8))
    orders = list(rs.permutation(n))  # file order differs from step order
    for o in orders:
        p = [0.05, 0.05, 0.1, 0.2, 0.3, 0.3] if good else [0.05, 0.2, 0.25, 0.25, 0.2, 0.05]
        level = int(rs.choice([-1, 0, 1, 2, 3, 4], p=p))
        step = {"trajectory_id": tid, "order": int(o), "level": level, "source": "declared"}
        if session:
            v = rs.choice(["final", "final", "final", "revoked", "provisional", "none"])
            if v != "none":
                step["verdict"] = str(v)
        steps.append(step)
        if rs.uniform() < 0.3:
            weights[f"{tid}:{int(o)}"] = round(float(rs.uniform(0.2, 2.0)), 3)
    if t == 23:  # every step masked
        for s in steps:
            if s["trajectory_id"] == tid:
                s["level"] = -1
                s.pop("verdict", None)
    ref = round(float((0.7 if good else 0.4) + 0.2 * rs.normal()), 1)  # rounding makes ties
    g = {"trajectory_id": tid, "group": "good" if good else "bad"}
    if t % 7 != 5:
        g["reference"] = ref
    groups.append(g)

os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "steps.jsonl"), "w") as f:
    f.writelines(json.dumps(s) + "\n" for s in steps)
with open(os.path.join(OUT, "groups.jsonl"), "w") as f:
    f.writelines(json.dumps(g) + "\n" for g in groups)
with open(os.path.join(OUT, "prm_weights.json"), "w") as f:
    json.dump(weights, f, indent=2, sort_keys=True)
    f.write("\n")


def reason(step, session):
    v = step.get("verdict")
    if session:
        if v == "revoked":
            return "revoked"
        if v == "provisional":
            return "provisional_not_final"
        if v is None:
            return "no_verdict_record"
    return "level_minus_one" if step["level"] == -1 else None


def rewards(tid, recipe):
    ss = sorted([s for s in steps if s["trajectory_id"] == tid], key=lambda s: s["order"])
    session = any("verdict" in s for s in ss)
    kept = [s for s in ss if reason(s, session) is None]
    if not kept:
        return None
    r = np.array([MAP[s["level"]] for s in kept])
    if recipe == "C":
        w = np.array([weights.get(f"{tid}:{s['order']}", 1.0) for s in kept])
        return float(np.sum(w * r) / np.sum(w))
    a = float(np.mean(r))
    if recipe == "B" and any(s["level"] == 0 for s in kept):
        return a * 0.3
    return a


ids = [g["trajectory_id"] for g in groups]
res = {"rewards": {rc: [rewards(t, rc) for t in ids] for rc in "ABC"}}


def masks(tid):
    ss = [s for s in steps if s["trajectory_id"] == tid]
    session = any("verdict" in s for s in ss)
    out = {"revoked": 0, "provisional_not_final": 0, "no_verdict_record": 0, "level_minus_one": 0}
    for s in ss:
        r = reason(s, session)
        if r is not None:
            out[r] += 1
    return ["session" if session else "legacy", out]


res["masks"] = [masks(t) for t in ids]
scored = [g for g in groups if res["rewards"]["A"][ids.index(g["trajectory_id"])] is not None]
good = [g["trajectory_id"] for g in scored if g["group"] == "good"]
bad = [g["trajectory_id"] for g in scored if g["group"] == "bad"]
B = 3000
gen = Xoshiro128ss(20260927)
idx = []
for _ in range(B):
    gi = [gen.next_int(len(good)) for _ in good]
    bi = [gen.next_int(len(bad)) for _ in bad]
    idx.append((gi, bi))
res["comparison"] = {}
for rc in "ABC":
    val = {t: res["rewards"][rc][ids.index(t)] for t in ids}
    gv = np.array([val[t] for t in good])
    bv = np.array([val[t] for t in bad])
    draws = np.sort(np.array([gv[gi].mean() - bv[bi].mean() for gi, bi in idx]))
    ref = [(val[g["trajectory_id"]], g["reference"]) for g in scored if "reference" in g]
    rho = spearmanr([x for x, _ in ref], [y for _, y in ref]).statistic
    res["comparison"][rc] = {
        "difference": float(gv.mean() - bv.mean()),
        "ci": [float(draws[math.floor(0.025 * (B - 1))]), float(draws[math.floor(0.975 * (B - 1))])],
        "n_good": len(good), "n_bad": len(bad), "n_reference": len(ref), "spearman_rho": float(rho),
    }
with open(os.path.join(OUT, "reference.json"), "w") as f:
    json.dump(res, f, indent=2)
    f.write("\n")
print(json.dumps(res["comparison"], indent=1))
