"""Reference numbers for `gate history`'s internalization screen.

Refits the demo's three steps independently with statsmodels (paired-delta
no-intercept OLS on reward, completed attempts paired by (split, task_id,
sample_id)): Gate A with HC3 errors, the two ckpt-b rounds pooled with CR1
errors clustered by task (statsmodels' cluster correction G/(G-1) (N-1)/(N-K)),
ckpt-c's online gate with HC3. Also refits the cross-service gate with both estimators (paired-delta
no-intercept, and the legacy R - mean(B) on an intercept and C, HC3). Then fits the WLS trend of the
query-formulation.v1 coefficient over steps 1..3 with weights 1/se^2 and the
scale fixed at 1 (`cov_type="fixed scale"`), normal 95% interval; plus one
synthetic case. Writes tests/data/history_wls_reference.json.

Run from the repository root:
    python3 scripts/reference/history_wls.py
"""
import json
from pathlib import Path

import numpy as np
import statsmodels.api as sm

DEMO = Path("data/demo")


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def completed(run_dir):
    return {
        (t["split"], t["task_id"], t["sample_id"]): t
        for t in read_jsonl(Path(run_dir) / "traces.jsonl")
        if t["status"] == "completed"
    }


def gate_rows(gate_dir):
    gate_dir = Path(gate_dir)
    gate = json.loads((gate_dir / "gate.json").read_text())
    bare = completed((gate_dir / gate["bare_run_dir"]).resolve())
    masked = completed(gate_dir)
    cols = [(s["slot_id"], v["version_id"]) for s in gate["slots"] for v in s["versions"]]
    X, y, tasks = [], [], []
    for a in read_jsonl(gate_dir / "assignments.jsonl"):
        key = (a["split"], a["task_id"], a["sample_id"])
        X.append([1.0 if a["slots"][s] == v else 0.0 for s, v in cols])
        y.append(masked[key]["reward"] - bare[key]["reward"])
        tasks.append(key[1])
    return [v for _, v in cols], np.array(X), np.array(y), tasks


def step(gate_dirs, version):
    names, Xs, ys, tasks = None, [], [], []
    for d in gate_dirs:
        n, X, y, t = gate_rows(d)
        names = n
        Xs.append(X)
        ys.append(y)
        tasks += t
    X, y = np.vstack(Xs), np.concatenate(ys)
    model = sm.OLS(y, X)
    if len(gate_dirs) > 1:
        groups = np.unique(tasks, return_inverse=True)[1]
        fit = model.fit(cov_type="cluster", cov_kwds={"groups": groups})
    else:
        fit = model.fit(cov_type="HC3")
    j = names.index(version)
    return float(fit.params[j]), float(fit.bse[j])


def wls(x, y, se):
    fit = sm.WLS(np.array(y), sm.add_constant(np.array(x, dtype=float)), weights=1 / np.array(se) ** 2).fit(
        cov_type="fixed scale", cov_kwds={"scale": 1.0}
    )
    lo, hi = fit.conf_int(alpha=0.05)[1]
    return {"slope": float(fit.params[1]), "slope_se": float(fit.bse[1]), "slope_ci": [float(lo), float(hi)]}


def legacy(gate_dir):
    """Paired-delta (no intercept) and legacy intercept fits of one gate: R - mean(B) on [1, C]."""
    gate_dir = Path(gate_dir)
    gate = json.loads((gate_dir / "gate.json").read_text())
    bare = completed((gate_dir / gate["bare_run_dir"]).resolve())
    masked = completed(gate_dir)
    cols = [(s["slot_id"], v["version_id"]) for s in gate["slots"] for v in s["versions"]]
    X, r, b = [], [], []
    for a in read_jsonl(gate_dir / "assignments.jsonl"):
        key = (a["split"], a["task_id"], a["sample_id"])
        X.append([1.0 if a["slots"][s] == v else 0.0 for s, v in cols])
        r.append(masked[key]["reward"])
        b.append(bare[key]["reward"])
    X, r, b = np.array(X), np.array(r), np.array(b)
    paired = sm.OLS(r - b, X).fit(cov_type="HC3")
    old = sm.OLS(r - b.mean(), sm.add_constant(X)).fit(cov_type="HC3")
    return {
        "versions": [v for _, v in cols],
        "paired_delta": [float(x) for x in paired.params],
        "legacy_intercept": [float(x) for x in old.params[1:]],
        "legacy_intercept_se_hc3": [float(x) for x in old.bse[1:]],
        "intercept": float(old.params[0]),
        "bare_mean": float(b.mean()),
    }


def main():
    steps = [
        [DEMO / "ckpt-a/gate-a"],
        [DEMO / "ckpt-b/gate-online-r1", DEMO / "ckpt-b/gate-online-r2"],
        [DEMO / "ckpt-c/gate-online-c"],
    ]
    est = [step(s, "query-formulation.v1") for s in steps]
    x, y, se = [1, 2, 3], [e for e, _ in est], [s for _, s in est]
    synthetic = {"x": [1, 2, 3, 4], "y": [0.31, 0.22, 0.18, 0.02], "se": [0.05, 0.03, 0.04, 0.06]}
    out = {
        "made_by": "python3 scripts/reference/history_wls.py (statsmodels OLS HC3 / cluster, WLS fixed scale)",
        "demo": {"chunk_id": "query-formulation", "steps": x, "estimates": y, "standard_errors": se, **wls(x, y, se)},
        "legacy_xsvc": legacy(DEMO / "ckpt-c/gate-online-c-xsvc"),
        "synthetic": {**synthetic, **wls(synthetic["x"], synthetic["y"], synthetic["se"])},
    }
    Path("tests/data/history_wls_reference.json").write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
