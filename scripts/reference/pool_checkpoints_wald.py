"""Reference numbers for pooled checkpoints (tests/analyze_pool_checkpoints_test.ts).

The fixture is tests/pool_checkpoints.ts, rebuilt here from the demo's files: checkpoint A is
data/demo/ckpt-a (bare-val, gate-a) as it is; checkpoint B is the same gate with its bare run's
completed outcomes (reward, rewards, success) rotated by one completed line (the last line's to
the first). Each gate's rows are paired with ITS OWN bare run (episode key split/task/sample, the
completed attempt of each arm); the design is the assignment's versions (gate.json column order).

statsmodels 0.15: the pooled no-intercept OLS of delta on the design, CR1 clustered by task
(fit(cov_type="cluster", groups=task)); the interacted OLS with one column per (version,
checkpoint), CR1 clustered by task over all rows; per version wald_test(use_f=False) of equal
effects (one restriction b_B - b_A = 0), and the joint wald_test of all 14 restrictions.

Run: python3 scripts/reference/pool_checkpoints_wald.py > tests/data/reference/pool_checkpoints_wald.json
"""
import json
import os

import numpy as np
import statsmodels
import statsmodels.api as sm

DEMO = os.path.join(os.path.dirname(__file__), "..", "..", "data", "demo", "ckpt-a")


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def completed(lines):
    return {(l["split"], l["task_id"], l["sample_id"]): l for l in lines if l["status"] == "completed"}


def rotated(lines):
    lines = [dict(l) for l in lines]
    done = [l for l in lines if l["status"] == "completed"]
    outcomes = [(l["reward"], l["rewards"], l["success"]) for l in done]
    for i, l in enumerate(done):
        l["reward"], l["rewards"], l["success"] = outcomes[(i - 1) % len(outcomes)]
    return lines


def main():
    gate = json.load(open(os.path.join(DEMO, "gate-a", "gate.json")))
    versions = [v["version_id"] for s in gate["slots"] for v in s["versions"]]
    assignments = read_jsonl(os.path.join(DEMO, "gate-a", "assignments.jsonl"))
    masked = completed(read_jsonl(os.path.join(DEMO, "gate-a", "traces.jsonl")))
    bare_lines = read_jsonl(os.path.join(DEMO, "bare-val", "traces.jsonl"))
    bares = [completed(bare_lines), completed(rotated(bare_lines))]
    x, y, task, ck, bare_reward = [], [], [], [], []
    for c, bare in enumerate(bares):
        for a in assignments:
            key = (a["split"], a["task_id"], a["sample_id"])
            present = set(v for v in a["slots"].values() if v is not None)
            x.append([1.0 if v in present else 0.0 for v in versions])
            y.append(masked[key]["reward"] - bare[key]["reward"])
            task.append(a["split"] + "/" + a["task_id"])
            ck.append(c)
            bare_reward.append(bare[key]["reward"])
    x, y, ck = np.array(x), np.array(y), np.array(ck)
    groups = np.unique(np.array(task), return_inverse=True)[1]
    k = len(versions)
    pooled = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    xi = np.hstack([x * (ck == c)[:, None] for c in range(2)])
    inter = sm.OLS(y, xi).fit(cov_type="cluster", cov_kwds={"groups": groups})
    out = {}
    for j, v in enumerate(versions):
        r = np.zeros((1, 2 * k))
        r[0, j], r[0, k + j] = -1.0, 1.0
        w = inter.wald_test(r, use_f=False, scalar=True)
        out[v] = {
            "pooled": float(pooled.params[j]), "pooled_se_cluster": float(pooled.bse[j]),
            "estimate": [float(inter.params[j]), float(inter.params[k + j])],
            "se_cluster": [float(inter.bse[j]), float(inter.bse[k + j])],
            "wald": {"statistic": float(w.statistic), "df": int(r.shape[0]),
                     "p": float(w.pvalue)},
        }
    rj = np.hstack([-np.eye(k), np.eye(k)])
    joint = inter.wald_test(rj, use_f=False, scalar=True)
    first = next(i for i, t in enumerate(task) if t == "val/ws-val-0001")
    print(json.dumps({
        "generated_by": "python3 scripts/reference/pool_checkpoints_wald.py > tests/data/reference/pool_checkpoints_wald.json",
        "statsmodels": statsmodels.__version__,
        "n": int(len(y)), "tasks": int(groups.max() + 1),
        "bare_reward_ws_val_0001": [bare_reward[first], bare_reward[first + len(assignments)]],
        "versions": out,
        "joint": {"statistic": float(joint.statistic), "df": int(k), "p": float(joint.pvalue)},
    }, indent=1))


if __name__ == "__main__":
    main()
