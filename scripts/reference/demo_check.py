"""Throwaway sanity check of the demo data's planted effects (numpy only).

Refits every demo gate with the paired-delta no-intercept OLS
R_i - B_i = C_i' beta + e_i (completed attempts only, paired by
(split, task_id, sample_id)) and prints recovered coefficients with HC3
standard errors next to truth.json's expected OLS coefficient and average
marginal effect, and checks that Gate A's positive top budget_k of the
reward coefficients (S_0) is truth.json's `gate_a.refit_selection` and the
equipped skill of Gate B. The online rounds are pooled (rows = gate x episode) with
CR1 task-clustered standard errors.

Run from the repository root:
    python3 scripts/reference/demo_check.py [data/demo] [metric]
With --json it prints Gate A's reward refit (S_0, estimates, HC3 errors) as
JSON; scripts/reference/regenerate.sh writes that to
tests/data/reference/demo_check.json, which tests/demo_refit_test.ts reads.
"""
import json
import sys
from pathlib import Path

import numpy as np


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def completed(run_dir):
    out = {}
    for t in read_jsonl(Path(run_dir) / "traces.jsonl"):
        if t["status"] == "completed":
            out[(t["split"], t["task_id"], t["sample_id"])] = t
    return out


def gate_rows(gate_dir, metric):
    gate_dir = Path(gate_dir)
    gate = json.loads((gate_dir / "gate.json").read_text())
    bare = completed((gate_dir / gate["bare_run_dir"]).resolve())
    masked = completed(gate_dir)
    cols = [(s["slot_id"], v["version_id"]) for s in gate["slots"] for v in s["versions"]]
    X, y, tasks = [], [], []
    for a in read_jsonl(gate_dir / "assignments.jsonl"):
        key = (a["split"], a["task_id"], a["sample_id"])
        m, b = masked[key], bare[key]
        get = (lambda t: t["reward"]) if metric == "reward" else (lambda t: t["rewards"][metric])
        X.append([1.0 if a["slots"][s] == v else 0.0 for s, v in cols])
        y.append(get(m) - get(b))
        tasks.append(key[:2])
    return [v for _, v in cols], np.array(X), np.array(y), tasks


def ols(X, y, tasks=None):
    xtx_inv = np.linalg.inv(X.T @ X)
    beta = xtx_inv @ X.T @ y
    e = y - X @ beta
    n, k = X.shape
    if tasks is None:  # HC3
        h = np.einsum("ij,jk,ik->i", X, xtx_inv, X)
        meat = (X * (e / (1 - h))[:, None] ** 2).T @ X
        return beta, np.sqrt(np.diag(xtx_inv @ meat @ xtx_inv))
    groups = {}
    for i, t in enumerate(tasks):  # CR1 clustered by task
        groups.setdefault(t, []).append(i)
    meat = np.zeros((k, k))
    for idx in groups.values():
        s = X[idx].T @ e[idx]
        meat += np.outer(s, s)
    g = len(groups)
    c = g / (g - 1) * (n - 1) / (n - k)
    return beta, np.sqrt(np.diag(c * xtx_inv @ meat @ xtx_inv))


def table(title, names, beta, se, expected, ame):
    print(f"\n{title}")
    print("| version | estimate | se | expected OLS | AME | z vs expected |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for i, v in enumerate(names):
        z = (beta[i] - expected[v]) / se[i]
        print(f"| {v} | {beta[i]:.4f} | {se[i]:.4f} | {expected[v]:.4f} | {ame[v]:.4f} | {z:+.2f} |")


def main_json(root):
    """Gate A reward refit as JSON (what tests/demo_refit_test.ts reads)."""
    names, X, y, _ = gate_rows(root / "ckpt-a/gate-a", "reward")
    beta, se = ols(X, y)
    budget = json.loads((root / "ckpt-a/gate-a/gate.json").read_text())["budget_k"]
    order = sorted(range(len(names)), key=lambda j: (-beta[j], names[j]))
    doc = {
        "generated_by": "python3 scripts/reference/demo_check.py data/demo reward --json "
                        "(numpy paired-delta no-intercept OLS, HC3)",
        "budget_k": budget,
        "selected": [names[j] for j in order[:budget] if beta[j] > 0],
        "estimates": {v: float(beta[i]) for i, v in enumerate(names)},
        "se_hc3": {v: float(se[i]) for i, v in enumerate(names)},
    }
    print(json.dumps(doc, indent=1))


def main():
    args = [a for a in sys.argv[1:] if a != "--json"]
    root = Path(args[0] if args else "data/demo")
    if "--json" in sys.argv:
        return main_json(root)
    metric = args[1] if len(args) > 1 else "reward"
    truth = json.loads((root / "truth.json").read_text())
    names, X, y, _ = gate_rows(root / "ckpt-a/gate-a", metric)
    beta, se = ols(X, y)
    ga = truth["gate_a"]
    table(f"Gate A ({metric}, n={len(y)}, HC3)", names, beta, se,
          ga["expected_ols"][metric], ga["average_marginal_effect"][metric])
    if metric == "reward":
        budget = json.loads((root / "ckpt-a/gate-a/gate.json").read_text())["budget_k"]
        order = sorted(range(len(names)), key=lambda j: (-beta[j], names[j]))
        s0 = [names[j] for j in order[:budget] if beta[j] > 0]
        equipped = json.loads((root / "gate-b/equipped-test/manifest.json").read_text())
        same = s0 == ga["refit_selection"]["selected"] == truth["gate_b"]["selected_skills"] \
            == equipped["skill"]["selected_skills"]
        print(f"\nGate A refit S_0 (positive top {budget}): {', '.join(s0)}")
        print(f"equals truth.json refit_selection, gate_b.selected_skills and the equipped manifest: {same}")
    rows = [gate_rows(root / "ckpt-b" / g, metric) for g in ("gate-online-r1", "gate-online-r2")]
    names = rows[0][0]
    X = np.vstack([r[1] for r in rows])
    y = np.concatenate([r[2] for r in rows])
    tasks = rows[0][3] + rows[1][3]
    beta, se = ols(X, y, tasks)
    on = truth["online"]
    table(f"Online r1+r2 pooled ({metric}, n={len(y)}, CR1 by task)", names, beta, se,
          on["expected_ols_pooled"][metric], on["average_marginal_effect_pooled"][metric])
    bare = completed(root / "gate-b/bare-test")
    eq = completed(root / "gate-b/equipped-test")
    get = (lambda t: t["reward"]) if metric == "reward" else (lambda t: t["rewards"][metric])
    d = np.array([get(eq[k]) - get(bare[k]) for k in bare])
    print(f"\nGate B ({metric}): paired mean difference {d.mean():.4f} "
          f"(se {d.std(ddof=1) / np.sqrt(len(d)):.4f}), expected "
          f"{truth['gate_b']['expected_difference'][metric]:.4f}")


if __name__ == "__main__":
    main()
