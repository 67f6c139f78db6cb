"""Reference numbers for a version whose variance is not estimable (tests/analyze_estimability_test.ts).

The fixture is writeLoneVersion of tests/edge_fits.ts, rebuilt here from the demo's files:
data/demo/ckpt-a gate-a with review-reading.v1 present in row 0 (ws-val-0000) only. Row 0 then has
leverage 1: its residual is 0 whatever the noise, so review-reading.v1's variance is not
estimable. statsmodels' CR1 still gives it a standard error (recorded as statsmodels_se_cluster),
made only of the other rows' residuals through (X'X)^-1 and none of its own row's noise (exactly 0
when the lone version is alone in its row): the number gatelab must not report.

statsmodels 0.15 on the full 400 x 14 design: OLS estimates, and fit(cov_type="cluster",
groups=task) for every other version's CR1 error (row 0's cluster score is 0, so the others are
well defined). HC3 of the other versions from the reduced data without row 0 and without the
lone column (statsmodels cannot weight a leverage-1 row; removing what it determines leaves the
other coefficients, residuals and leverages unchanged).

Run: python3 scripts/reference/estimability_lone.py > tests/data/reference/estimability_lone.json
"""
import json
import os

import numpy as np
import statsmodels
import statsmodels.api as sm

DEMO = os.path.join(os.path.dirname(__file__), "..", "..", "data", "demo", "ckpt-a")
LONE = "review-reading.v1"


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def completed(lines):
    return {(l["split"], l["task_id"], l["sample_id"]): l for l in lines if l["status"] == "completed"}


def main():
    gate = json.load(open(os.path.join(DEMO, "gate-a", "gate.json")))
    versions = [v["version_id"] for s in gate["slots"] for v in s["versions"]]
    assignments = read_jsonl(os.path.join(DEMO, "gate-a", "assignments.jsonl"))
    masked = completed(read_jsonl(os.path.join(DEMO, "gate-a", "traces.jsonl")))
    bare = completed(read_jsonl(os.path.join(DEMO, "bare-val", "traces.jsonl")))
    x, y, task = [], [], []
    for i, a in enumerate(assignments):
        slots = dict(a["slots"])
        slots["review-reading"] = LONE if i == 0 else None
        present = set(v for v in slots.values() if v is not None)
        key = (a["split"], a["task_id"], a["sample_id"])
        x.append([1.0 if v in present else 0.0 for v in versions])
        y.append(masked[key]["reward"] - bare[key]["reward"])
        task.append(a["task_id"])
    x, y = np.array(x), np.array(y)
    groups = np.unique(np.array(task), return_inverse=True)[1]
    lone = versions.index(LONE)
    full = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    others = [j for j in range(len(versions)) if j != lone]
    reduced = sm.OLS(y[1:], x[1:][:, others]).fit(cov_type="HC3")
    out = {}
    for at, j in enumerate(others):
        out[versions[j]] = {"estimate": float(full.params[j]), "se_cluster": float(full.bse[j]),
                            "se_hc3": float(reduced.bse[at])}
    print(json.dumps({
        "generated_by": "python3 scripts/reference/estimability_lone.py > tests/data/reference/estimability_lone.json",
        "statsmodels": statsmodels.__version__,
        "lone": {"version_id": LONE, "estimate": float(full.params[lone]),
                 "statsmodels_se_cluster": float(full.bse[lone])},
        "versions": out,
    }, indent=1))


if __name__ == "__main__":
    main()
