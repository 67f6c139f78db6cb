"""Reference numbers for the unbalanced study bounds in tests/study_resolve_test.ts.

Independent of gatelab's formula: for each fixture arm it enumerates every
completion of the unresolved slots (each 0 or 1, 2^U of them), computes the
nested mean (1/K) sum_k (1/N) sum_i (1/n_ki) sum_r y_kir of each completion
with numpy, and records the smallest and largest value. The bounds are the
range of the point estimate over the outcomes the unresolved slots could
have had. Fixture outcomes come from numpy's RandomState(11). Run:
    python3 scripts/reference/study_bounds.py > tests/data/reference/study_bounds.json
"""
import itertools
import json

import numpy as np


def fixture(rng, seeds, tasks, max_reps, p_unresolved):
    slots = []
    for k in range(seeds):
        for i in range(tasks):
            reps = int(rng.randint(1, max_reps + 1))
            for r in range(reps):
                u = rng.random_sample() < p_unresolved
                y = None if u else int(rng.random_sample() < 0.5)
                slots.append({"train_seed": k + 1, "task_id": f"t{i}", "rep": r, "outcome": y})
    return slots


def nested_mean(slots, fill):
    cells = {}
    j = 0
    for s in slots:
        y = s["outcome"]
        if y is None:
            y = fill[j]
            j += 1
        cells.setdefault((s["train_seed"], s["task_id"]), []).append(y)
    seeds = sorted({k for k, _ in cells})
    tasks = sorted({t for _, t in cells})
    grid = np.array([[np.mean(cells[(k, t)]) for t in tasks] for k in seeds])
    return float(grid.mean(axis=1).mean())


def bounds(slots):
    u = sum(1 for s in slots if s["outcome"] is None)
    values = [nested_mean(slots, fill) for fill in itertools.product([0, 1], repeat=u)]
    return [min(values), max(values)]


def main():
    rng = np.random.RandomState(11)
    arms = {
        "unbalanced": fixture(rng, 2, 3, 3, 0.25),
        "unbalanced_one_seed": fixture(rng, 1, 4, 4, 0.2),
    }
    # The example: one cell with 1 rep, one with 3; one unresolved slot in the large cell.
    arms["issue_example"] = [
        {"train_seed": 1, "task_id": "a", "rep": 0, "outcome": 1},
        {"train_seed": 1, "task_id": "b", "rep": 0, "outcome": 0},
        {"train_seed": 1, "task_id": "b", "rep": 1, "outcome": 0},
        {"train_seed": 1, "task_id": "b", "rep": 2, "outcome": None},
    ]
    out = {
        "generated_by": "python3 scripts/reference/study_bounds.py > tests/data/reference/study_bounds.json",
        "method": "min and max of the nested mean over all 0/1 completions of the unresolved slots",
        "numpy": np.__version__,
        "arms": {name: {"slots": s, "bounds": bounds(s)} for name, s in arms.items()},
    }
    print(json.dumps(out, indent=1))


main()
