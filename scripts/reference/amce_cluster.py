"""Reference numbers for the clustered AMCE standard error (tests/infer_diagnostics_test.ts).

The fixture is the pooled 30-row, 24-task fixture of tests/infer_fixture.ts (built by fixture() in
scripts/reference/infer_bootstrap.py). For each version, the AMCE is the mean reward delta over rows
where it is present minus the mean over rows where its slot is absent; with pooled rows its
standard error is CR1 clustered by task: statsmodels 0.15 OLS of y on [present, slot absent]
(no intercept) over the rows of either group, fit(cov_type="cluster", groups=task), and
t_test([1, -1]).sd.

Run: python3 scripts/reference/amce_cluster.py > tests/data/reference/amce_cluster.json
"""
import json
import os
import sys

import numpy as np
import statsmodels
import statsmodels.api as sm

sys.path.insert(0, os.path.dirname(__file__))
from infer_bootstrap import fixture  # noqa: E402


def main():
    rows, _ = fixture()
    x = np.array([r["x"] for r in rows])
    y = np.array([r["reward"] for r in rows])
    task = np.array([r["task"] for r in rows])
    slot = {0: [0], 1: [1, 2], 2: [1, 2]}  # a alone; s@old and s@new share slot s
    out = []
    for j, vid in enumerate(["a", "s@old", "s@new"]):
        present = x[:, j] == 1
        absent = np.all(x[:, slot[j]] == 0, axis=1)
        use = present | absent
        d = np.column_stack([present[use], absent[use]]).astype(float)
        res = sm.OLS(y[use], d).fit(cov_type="cluster", cov_kwds={"groups": task[use]})
        t = res.t_test(np.array([[1.0, -1.0]]))
        out.append({"version_id": vid, "amce": float(y[present].mean() - y[absent].mean()),
                    "amce_se": float(np.squeeze(t.sd)), "n_present": int(present.sum()),
                    "n_slot_absent": int(absent.sum())})
    print(json.dumps({
        "generated_by": "python3 scripts/reference/amce_cluster.py > tests/data/reference/amce_cluster.json",
        "statsmodels": statsmodels.__version__, "amce": out}, indent=1))


if __name__ == "__main__":
    main()
