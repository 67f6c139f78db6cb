"""Reference numbers for `gate sequential` (anytime-valid confidence sequences).

Independent of gatelab: reads the demo's cold-start Gate A directly (completed
masked attempts in traces.jsonl order, paired with the bare run by
(split, task_id, sample_id); the design from assignments.jsonl and gate.json),
fits the no-intercept OLS on every prefix n = M + 2 .. N with numpy.linalg.lstsq
on the prefix rows, and applies the Lindon, Ham, Tingley & Bojinov anytime-valid
formulas (alpha 0.05, phi 1):

    nu = n - M, t = b / se, z2 = s^2 / se^2, r = phi / (phi + z2)
    log e  = 0.5 log r + ((nu + 1)/2) (log(1 + t^2/nu) - log(1 + r t^2/nu))
    radius = se sqrt(nu (1 - (r alpha^2)^(1/(nu+1))) / max(0, (r alpha^2)^(1/(nu+1)) - r))

It records every metric's values at a few prefixes, the running intersection and
maximum e there, the first n at which the sequence excludes 0 with its sign, and
the first n from which the positive top-budget_k selection (Gate A has ADD chunks
only; ties by version id) equals the selection at N. Writes
tests/data/sequential_reference.json.

Run from the repository root:
    python3 scripts/reference/sequential_avlm.py
"""
import json
import math
from pathlib import Path

import numpy as np

GATE = Path("data/demo/ckpt-a/gate-a")
ALPHA, PHI = 0.05, 1.0
REPORT_AT = [16, 17, 18, 25, 50, 100, 200, 300, 399, 400]


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def rounded(value):
    """12 significant digits (the tests allow 1e-9), so that another BLAS or libm
    does not change the committed bytes when regenerate.sh re-runs this script."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def main():
    gate = json.loads((GATE / "gate.json").read_text())
    manifest = json.loads((GATE / "manifest.json").read_text())
    metrics = ["reward"] + manifest["provenance"]["reward"]["components"]
    bare = {
        (t["split"], t["task_id"], t["sample_id"]): t
        for t in read_jsonl((GATE / gate["bare_run_dir"] / "traces.jsonl").resolve())
        if t["status"] == "completed"
    }
    assignments = {(a["split"], a["task_id"], a["sample_id"]): a for a in read_jsonl(GATE / "assignments.jsonl")}
    cols = [(s["slot_id"], v["version_id"]) for s in gate["slots"] for v in s["versions"]]
    names = [v for _, v in cols]
    X, Y = [], {m: [] for m in metrics}
    for t in read_jsonl(GATE / "traces.jsonl"):
        if t["status"] != "completed":
            continue
        key = (t["split"], t["task_id"], t["sample_id"])
        a = assignments[key]
        X.append([1.0 if a["slots"][s] == v else 0.0 for s, v in cols])
        for m in metrics:
            value = lambda r: r["reward"] if m == "reward" else r["rewards"][m]
            Y[m].append(value(t) - value(bare[key]))
    X = np.array(X)
    N, M = X.shape
    budget = gate["budget_k"]
    out = {"gate": str(GATE), "alpha": ALPHA, "phi": PHI, "rows": N, "columns": M, "report_at": REPORT_AT, "metrics": {}}
    for m in metrics:
        y = np.array(Y[m])
        per = {name: {"estimate": {}, "se": {}, "cs_lower": {}, "cs_upper": {}, "e_value": {},
                      "running_lower": {}, "running_upper": {}, "running_max_e": {},
                      "sign_certified_at": None, "sign": None} for name in names}
        run = {name: [-math.inf, math.inf, -math.inf] for name in names}
        selections = []
        for n in range(M + 2, N + 1):
            Xn, yn = X[:n], y[:n]
            b = np.linalg.lstsq(Xn, yn, rcond=None)[0]
            nu = n - M
            s2 = float(np.sum((yn - Xn @ b) ** 2)) / nu
            inv = np.linalg.inv(Xn.T @ Xn)
            order = sorted(range(M), key=lambda j: (-b[j], names[j]))
            selections.append((n, sorted(names[j] for j in order[:budget] if b[j] > 0)))
            for j, name in enumerate(names):
                se = math.sqrt(s2 * inv[j, j])
                t = b[j] / se
                z2 = s2 / se**2
                r = PHI / (PHI + z2)
                loge = 0.5 * math.log(r) + (nu + 1) / 2 * (math.log(1 + t * t / nu) - math.log(1 + r * t * t / nu))
                q = (r * ALPHA**2) ** (1 / (nu + 1))
                radius = se * math.sqrt(nu * (1 - q) / (q - r)) if q - r > 0 else math.inf
                lo, hi = b[j] - radius, b[j] + radius
                st = run[name]
                st[0], st[1], st[2] = max(st[0], lo), min(st[1], hi), max(st[2], math.exp(loge))
                v = per[name]
                if v["sign_certified_at"] is None and (st[0] > 0 or st[1] < 0):
                    v["sign_certified_at"], v["sign"] = n, 1 if st[0] > 0 else -1
                if n in REPORT_AT:
                    k = str(n)
                    fin = lambda x: x if math.isfinite(x) else None
                    v["estimate"][k], v["se"][k] = float(b[j]), se
                    v["cs_lower"][k], v["cs_upper"][k] = fin(lo), fin(hi)
                    v["e_value"][k] = math.exp(loge)
                    v["running_lower"][k], v["running_upper"][k] = fin(st[0]), fin(st[1])
                    v["running_max_e"][k] = st[2]
        final = selections[-1][1]
        stable = None
        for n, sel in reversed(selections):
            if sel != final:
                break
            stable = n
        out["metrics"][m] = {"selection_stable_from": stable, "selection_at_N": final, "versions": per}
    target = Path("tests/data/sequential_reference.json")
    target.write_text(json.dumps(rounded(out)) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
