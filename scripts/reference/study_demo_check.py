"""Independent check of `deno task gate study <dir>` on any study directory
(e.g. the demo's data/demo/study): pandas re-implementation of slot
resolution (first report decides, model_failure 0, one re-verification and
one replacement generation, ambiguous unresolved), nested-mean estimates,
bounds, and the seeds x tasks percentile bootstrap driven by the Python
xoshiro128** (fresh stream per comparison, per draw K seed indices then N
task indices). Prints arms and comparisons as JSON to compare with
<out>/study.json.

Run: python3 scripts/reference/study_demo_check.py data/demo/study
"""
import json
import math
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(__file__))
from prng_xoshiro import Xoshiro128ss  # noqa: E402

d = sys.argv[1]
plan = json.load(open(os.path.join(d, "study.json")))
slots = pd.read_json(os.path.join(d, "slots.jsonl"), lines=True)
att = pd.read_json(os.path.join(d, "attempts.jsonl"), lines=True)
key = ["arm", "train_seed", "task_id", "rep"]

outcome = {}
violations = 0
for k, g in att.groupby(key, sort=False):
    allowed, ver, gen, out = True, False, False, None
    for _, a in g.iterrows():  # groupby keeps file order within a group
        if not allowed:
            violations += 1
            continue
        allowed = False
        if a.kind == "report":
            out = int(a.resolved)
        elif a.kind == "model_failure":
            out = 0
        elif a.kind == "ambiguous":
            out = None
        elif a.kind == "verifier_infra" and not ver:
            ver = allowed = True
        elif a.kind == "generation_infra" and not gen:
            gen = allowed = True
    outcome[k] = out
slots["y"] = [outcome.get(tuple(r), None) for r in slots[key].itertuples(index=False)]

arms = {}
grids = {}
for arm, g in slots.groupby("arm", sort=False):
    H, J = len(g), int(g.y.notna().sum())
    S = int(g.y.fillna(0).sum())
    complete = J == H
    cell = g.assign(y=g.y.astype(float)).groupby(["train_seed", "task_id"]).y.mean().unstack()
    grids[arm] = cell.sort_index().sort_index(axis=1)
    est = float(cell.mean(axis=1).mean()) if complete else None
    arms[arm] = {"planned": H, "observed": J, "successes": S, "estimate": est,
                 "bounds": [S / H, (S + H - J) / H]}

comps = []
B, seed = plan["bootstrap"]["draws"], plan["bootstrap"]["seed"]
for a, b in plan["comparisons"]:
    bounds = [arms[a]["bounds"][0] - arms[b]["bounds"][1], arms[a]["bounds"][1] - arms[b]["bounds"][0]]
    if arms[a]["estimate"] is None or arms[b]["estimate"] is None:
        comps.append({"a": a, "b": b, "estimate": None, "ci": None, "bounds": bounds})
        continue
    ya, yb = grids[a].to_numpy(), grids[b].to_numpy()
    K, N = ya.shape
    gen = Xoshiro128ss(seed)
    draws = np.empty(B)
    for i in range(B):
        si = [gen.next_int(K) for _ in range(K)] if K > 1 else [0]
        ti = [gen.next_int(N) for _ in range(N)]
        draws[i] = ya[np.ix_(si, ti)].mean() - yb[np.ix_(si, ti)].mean()
    draws.sort()
    comps.append({"a": a, "b": b, "estimate": arms[a]["estimate"] - arms[b]["estimate"],
                  "ci": [draws[math.floor(0.025 * (B - 1))], draws[math.floor(0.975 * (B - 1))]],
                  "bounds": bounds})
print(json.dumps({"arms": arms, "comparisons": comps, "violations": violations}, indent=1))
