"""Reference numbers for the interaction screen with leverage-1 rows (tests/infer_diagnostics_test.ts).

Fixture: 60 rows, plain chunks a, b, c, d (present with p = 0.5) and a chunk `lone` present in
row 0 only (and nothing else in row 0), so row 0 has leverage 1 in every model; c and d co-occur in exactly one row (row r),
so the c x d product gives row r leverage 1 in its extended model and HC3 of that product is 0/0.

statsmodels cannot fit the leverage-1 rows with HC3 (its weights e^2/(1-h)^2 are 0/0), so the
reference removes what a leverage-1 row determines, which leaves every other number unchanged:
row 0 and the `lone` column are dropped (row 0 is fit exactly by `lone`, and the column space
splits into span(e_0) and the rest, so the other rows' coefficients, residuals, leverages and
degrees of freedom n - p are the same). On the reduced data, statsmodels 0.15 OLS(cov_type="HC3")
per testable pair (a x b, a x c, a x d, b x c, b x d), `wald_test(use_f=True)`, Holm over those
five, and the joint `f_test` of the five products. Pairs with `lone` and c x d are not testable.

Run: python3 scripts/reference/infer_leverage_one.py > tests/data/reference/infer_leverage_one.json
"""
import itertools
import json

import numpy as np
import statsmodels
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests


def main():
    rng = np.random.default_rng(9)
    n = 60
    x = (rng.random((n, 4)) < 0.5).astype(float)
    both = np.flatnonzero((x[1:, 2] == 1) & (x[1:, 3] == 1)) + 1
    keep = both[0]
    for i in both:
        if i != keep:
            x[i, 3] = 0.0
    x[0] = 0.0  # row 0: `lone` only, so its leverage is 1 and its residual 0 in every model
    lone = np.zeros(n)
    lone[0] = 1.0
    y = x @ np.array([0.05, 0.02, -0.03, 0.04]) + 0.12 * x[:, 0] * x[:, 1] + rng.normal(0, 0.08, n)
    y[0] += 0.3
    y = np.round(y, 6)
    names = ["a", "b", "c", "d"]
    xr, yr = x[1:], y[1:]
    testable = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
    pairs = []
    for i, j in testable:
        xx = np.column_stack([xr, xr[:, i] * xr[:, j]])
        res = sm.OLS(yr, xx).fit(cov_type="HC3")
        w = res.wald_test(np.eye(5)[4:5], use_f=True, scalar=True)
        pairs.append({"a": names[i], "b": names[j], "gamma": float(res.params[4]),
                      "se": float(res.bse[4]), "f": float(w.statistic), "p": float(w.pvalue),
                      "df2": float(w.df_denom)})
    holm = multipletests([p["p"] for p in pairs], method="holm")[1]
    for p, h in zip(pairs, holm):
        p["holm"] = float(h)
    prods = np.column_stack([xr[:, i] * xr[:, j] for i, j in testable])
    res = sm.OLS(yr, np.column_stack([xr, prods])).fit(cov_type="HC3")
    r = np.zeros((5, 9))
    r[:, 4:] = np.eye(5)
    ft = res.f_test(r)
    joint = {"f": float(np.squeeze(ft.fvalue)), "p": float(ft.pvalue), "df1": float(ft.df_num),
             "df2": float(ft.df_denom)}
    design = np.column_stack([x, lone]).astype(int)
    print(json.dumps({
        "generated_by": "python3 scripts/reference/infer_leverage_one.py > tests/data/reference/infer_leverage_one.json",
        "statsmodels": statsmodels.__version__,
        "columns": names + ["lone"],
        "x": design.tolist(), "y": y.tolist(), "cd_row": int(keep),
        "pairs": pairs, "joint": joint,
    }, indent=1))


if __name__ == "__main__":
    main()
