"""Reference numbers for lib/fit: no-intercept OLS with HC0-HC3 and CR1 (statsmodels).

Run once from the repository root:

    python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json

It builds small fixed fixtures (the data is written into the JSON next to the
numbers), fits statsmodels OLS(y, X) without a constant, and records params,
standard errors for cov_type HC0..HC3 and cluster (groups = task), normal
p-values, SSR, the residual scale and the (uncentred, as statsmodels reports
for a model without constant) R-squared. It also asserts that statsmodels'
cluster correction is exactly CR1 = G/(G-1) x (N-1)/(N-K) and that its robust
p-values are normal (use_t False).
"""
import json
import sys

import numpy as np
import statsmodels
import statsmodels.api as sm


def fixture_pooled():
    # 12 tasks x 2 gates (rounds of masks); 4 versions; slot s3 is a family
    # (columns 2 and 3 mutually exclusive).
    rng = np.random.default_rng(20260930)
    tasks, gates, k = 12, 2, 4
    rows, groups = [], []
    for g in range(gates):
        for t in range(tasks):
            c0, c1 = rng.integers(0, 2, 2)
            fam = rng.integers(0, 3)  # 0 absent, 1 old, 2 new
            rows.append([c0, c1, int(fam == 1), int(fam == 2)])
            groups.append(t)
    X = np.array(rows, dtype=float)
    # guarantee every column present
    assert (X.sum(axis=0) > 0).all()
    difficulty = rng.normal(0, 0.2, tasks)
    beta = np.array([0.10, -0.05, 0.02, 0.08])
    y_reward = X @ beta + rng.normal(0, 0.15, len(rows)) + 0.3 * difficulty[groups]
    y_comp = X @ (beta[::-1]) + rng.normal(0, 0.3, len(rows))
    return X, {"reward": np.round(y_reward, 6), "r_success": np.round(y_comp, 6)}, np.array(groups)


def fixture_leverage_one():
    # Column 2 is present in exactly one row: that row has leverage 1.
    X = np.array([
        [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 0], [1, 0, 0],
        [0, 1, 0], [1, 1, 1], [1, 0, 0], [0, 1, 0], [0, 0, 0],
    ], dtype=float)
    y = np.array([0.3, -0.1, 0.25, 0.05, 0.1, -0.2, 0.9, 0.2, 0.0, -0.05])
    return X, {"reward": y}, np.arange(len(y))


def undefined_columns(X):
    """Columns a leverage-1 row determines: present in that one row only. Every variance of
    their coefficient is 0/0 or built on the row's forced zero residual, so what statsmodels
    prints there is rounding noise that changes with the BLAS build; it is written as null
    (gatelab marks these coefficients not estimable, tests/fit_ols_test.ts)."""
    h = np.diag(X @ np.linalg.pinv(X.T @ X) @ X.T)
    return [j for j in range(X.shape[1])
            if X[:, j].sum() == 1 and h[np.argmax(X[:, j])] > 1 - 1e-9]


def fit_all(X, ys, groups):
    out = {}
    noise = set(undefined_columns(X))
    clean = lambda values: [None if j in noise or not np.isfinite(v) else float(v)
                            for j, v in enumerate(values)]
    for metric, y in ys.items():
        res = {}
        for cov in ["HC0", "HC1", "HC2", "HC3"]:
            with np.errstate(all="ignore"):
                r = sm.OLS(y, X).fit(cov_type=cov)
            assert r.use_t is False
            res[cov.lower()] = {"bse": clean(r.bse), "pvalues": clean(r.pvalues)}
        rc = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": groups})
        assert rc.use_t is False
        n, k = X.shape
        G = len(np.unique(groups))
        # CR1 check: recompute by hand from the sandwich and compare.
        e = rc.resid
        A = np.linalg.inv(X.T @ X)
        S = np.zeros((k, k))
        for g in np.unique(groups):
            s = X[groups == g].T @ e[groups == g]
            S += np.outer(s, s)
        cr1 = G / (G - 1) * (n - 1) / (n - k) * A @ S @ A
        assert np.allclose(np.diag(cr1), rc.bse ** 2, rtol=1e-12, atol=0)
        plain = sm.OLS(y, X).fit()
        res["cluster"] = {"bse": clean(rc.bse), "pvalues": clean(rc.pvalues)}
        res["params"] = [float(v) for v in plain.params]
        res["ssr"] = float(plain.ssr)
        res["scale"] = float(plain.scale)
        res["rsquared_uncentered"] = float(plain.rsquared)
        res["df_resid"] = float(plain.df_resid)
        res["leverage"] = [float(v) for v in plain.get_influence().hat_matrix_diag]
        out[metric] = res
    return out


def main():
    fixtures = {}
    for name, fx in [("pooled", fixture_pooled), ("leverage_one", fixture_leverage_one)]:
        X, ys, groups = fx()
        fixtures[name] = {
            "X": X.astype(int).tolist(),
            "y": {m: [float(v) for v in y] for m, y in ys.items()},
            "groups": [int(g) for g in groups],
            "statsmodels": fit_all(X, ys, groups),
        }
    doc = {
        "generated_by": "python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json",
        "statsmodels": statsmodels.__version__,
        "numpy": np.__version__,
        "fixtures": fixtures,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
