"""Independent reference numbers for tests/validate_demo_test.ts.

Pairs the committed demo gates with pandas/numpy (not gatelab code): keeps
the completed attempt of every (split, task_id, sample_id), joins masked to
bare, and reports per metric the mean and sum of squares of the deltas, the
presence count of every design column (gate.json order) and the design rank.

Run from the repository root:
    python3 scripts/reference/validate_demo_pairing.py > tests/data/reference/validate_demo_pairing.json
(scripts/reference/regenerate.sh runs it; the test reads the JSON).
"""
import json
import os

import numpy as np
import pandas as pd


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def completed(run_dir, metrics):
    rows = []
    for t in read_jsonl(os.path.join(run_dir, "traces.jsonl")):
        if t["status"] != "completed":
            continue
        row = {"split": t["split"], "task_id": t["task_id"], "sample_id": t["sample_id"], "reward": t["reward"]}
        for m in metrics[1:]:
            row[m] = t["rewards"][m]
        rows.append(row)
    return pd.DataFrame(rows)


def reference(gate_dirs):
    out_rows, designs = [], []
    columns = []
    for g in gate_dirs:
        plan = json.load(open(os.path.join(g, "gate.json")))
        for s in plan["slots"]:
            for v in s["versions"]:
                if v["version_id"] not in columns:
                    columns.append(v["version_id"])
    for g in gate_dirs:
        plan = json.load(open(os.path.join(g, "gate.json")))
        bare_dir = os.path.normpath(os.path.join(g, plan["bare_run_dir"]))
        manifest = json.load(open(os.path.join(g, "manifest.json")))
        metrics = ["reward"] + manifest["provenance"]["reward"]["components"]
        key = ["split", "task_id", "sample_id"]
        masked = completed(g, metrics)
        bare = completed(bare_dir, metrics)
        pairs = masked.merge(bare, on=key, suffixes=("_m", "_b"), validate="one_to_one")
        assign = pd.DataFrame(read_jsonl(os.path.join(g, "assignments.jsonl")))
        design = np.array([[1 if v in set(x for x in a.values() if x) else 0 for v in columns] for a in assign["slots"]])
        designs.append(design)
        d = pd.DataFrame({m: pairs[m + "_m"] - pairs[m + "_b"] for m in metrics})
        out_rows.append(d)
    deltas = pd.concat(out_rows)
    design = np.vstack(designs)
    return {
        "n": int(len(deltas)),
        "columns": columns,
        "presence": [int(x) for x in design.sum(axis=0)],
        "rank": int(np.linalg.matrix_rank(design)),
        "delta_mean": {m: float(deltas[m].mean()) for m in deltas.columns},
        "delta_sumsq": {m: float((deltas[m] ** 2).sum()) for m in deltas.columns},
    }


if __name__ == "__main__":
    print(json.dumps({
        "gate-a": reference(["data/demo/ckpt-a/gate-a"]),
        "online-pooled": reference(["data/demo/ckpt-b/gate-online-r1", "data/demo/ckpt-b/gate-online-r2"]),
    }, indent=1))
