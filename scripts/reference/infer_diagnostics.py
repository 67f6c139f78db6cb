"""Reference numbers for tests/infer_diagnostics_test.ts.

A 120-row fixture with four plain chunks a, b, c, d (present with p = 0.5)
and one planted interaction a x b. statsmodels 0.15 OLS(cov_type="HC3"):
per pair, y ~ a + b + c + d + (i x j) without intercept and
`wald_test("x_ij = 0", use_f=True)`; jointly, all six products and
`f_test` on them; Holm via `multipletests(method="holm")`. The same
with `cov_type="cluster"` (groups: rows 2i, 2i+1 = task i) for CR1. AMCE as
difference of means; residuals of the main-effects fit by number present.

Run: python3 scripts/reference/infer_diagnostics.py > tests/data/reference/infer_diagnostics.json
(scripts/reference/regenerate.sh does; tests/infer_diagnostics_test.ts reads it).
"""
import itertools
import json

import numpy as np
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests


def main():
    rng = np.random.default_rng(4)
    n = 120
    x = (rng.random((n, 4)) < 0.5).astype(float)
    y = x @ np.array([0.05, 0.02, -0.03, 0.04]) + 0.15 * x[:, 0] * x[:, 1] + rng.normal(0, 0.08, n)
    y = np.round(y, 6)
    names = ["a", "b", "c", "d"]
    pairs = []
    for i, j in itertools.combinations(range(4), 2):
        xx = np.column_stack([x, x[:, i] * x[:, j]])
        res = sm.OLS(y, xx).fit(cov_type="HC3")
        w = res.wald_test(np.eye(5)[4:5], use_f=True, scalar=True)
        pairs.append({"a": names[i], "b": names[j], "gamma": res.params[4], "se": res.bse[4],
                      "f": float(w.statistic), "p": float(w.pvalue), "df2": float(w.df_denom)})
    holm = multipletests([p["p"] for p in pairs], method="holm")[1]
    for p, h in zip(pairs, holm):
        p["holm"] = float(h)
    prods = np.column_stack([x[:, i] * x[:, j] for i, j in itertools.combinations(range(4), 2)])
    xx = np.column_stack([x, prods])
    res = sm.OLS(y, xx).fit(cov_type="HC3")
    r = np.zeros((6, 10))
    r[:, 4:] = np.eye(6)
    ft = res.f_test(r)
    joint = {"f": float(np.squeeze(ft.fvalue)), "p": float(ft.pvalue), "df1": float(ft.df_num), "df2": float(ft.df_denom)}
    main_fit = sm.OLS(y, x).fit()
    amce = [float(y[x[:, j] == 1].mean() - y[x[:, j] == 0].mean()) for j in range(4)]
    counts = x.sum(axis=1).astype(int)
    resid = []
    for c in sorted(set(counts)):
        e = main_fit.resid[counts == c]
        resid.append({"count": int(c), "n": int(len(e)), "mean": float(e.mean()),
                      "sd": float(e.std(ddof=1)) if len(e) > 1 else None})
    # Clustered variant: rows 2i and 2i+1 belong to task i (pooled rounds), CR1 as cov_type="cluster".
    groups = np.arange(n) // 2
    clustered = []
    for i, j in itertools.combinations(range(4), 2):
        xx = np.column_stack([x, x[:, i] * x[:, j]])
        res = sm.OLS(y, xx).fit(cov_type="cluster", cov_kwds={"groups": groups})
        w = res.wald_test(np.eye(5)[4:5], use_f=True, scalar=True)
        clustered.append({"se": res.bse[4], "f": float(w.statistic), "p": float(w.pvalue), "df2": float(w.df_denom)})
    xx = np.column_stack([x, prods])
    res = sm.OLS(y, xx).fit(cov_type="cluster", cov_kwds={"groups": groups})
    ft = res.f_test(r)
    joint_cr1 = {"f": float(np.squeeze(ft.fvalue)), "p": float(ft.pvalue), "df1": float(ft.df_num), "df2": float(ft.df_denom)}
    print(json.dumps({"x": x.astype(int).tolist(), "y": y.tolist(), "pairs": pairs, "joint": joint,
                      "beta": main_fit.params.tolist(), "amce": amce, "resid": resid,
                      "clustered": clustered, "joint_cr1": joint_cr1}))


if __name__ == "__main__":
    main()
