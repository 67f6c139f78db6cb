"""Reference numbers for tests/infer_power_test.ts: the analytic standard
error of a no-intercept OLS coefficient with M independent Bernoulli(p)
columns, sqrt(s^2/N * inv(p(1-p) I + p^2 J)[0, 0]) computed with
numpy.linalg.inv (not the closed form used by lib/power/power.ts), and the
MDE (norm.ppf(0.975) + norm.ppf(0.8)) * se with scipy.stats.norm. Also a
Monte Carlo SE from numpy (20000 sims) for N=400, M=16, p=0.5, s=0.3.

Run: python3 scripts/reference/infer_power.py > tests/data/reference/infer_power.json
(scripts/reference/regenerate.sh does; tests/infer_power_test.ts reads it).
"""
import json

import numpy as np
from scipy.stats import norm

cases = [(400, 16, 0.5, 0.3), (400, 14, 0.5, 0.25), (120, 4, 0.3, 0.1), (1000, 32, 0.7, 0.5)]
out = []
for n, m, p, s in cases:
    sigma = p * (1 - p) * np.eye(m) + p * p * np.ones((m, m))
    se = float(np.sqrt(s * s / n * np.linalg.inv(sigma)[0, 0]))
    out.append({"tasks": n, "columns": m, "p": p, "s": s, "se": se,
                "mde": float((norm.ppf(0.975) + norm.ppf(0.8)) * se)})
rng = np.random.default_rng(0)
est = []
for _ in range(20000 // 100):
    x = (rng.random((100, 400, 16)) < 0.5).astype(float)
    y = rng.normal(0, 0.3, (100, 400))
    xtx = np.einsum("bni,bnj->bij", x, x)
    xty = np.einsum("bni,bn->bi", x, y)
    est.append(np.linalg.solve(xtx, xty[..., None])[..., 0])
est = np.concatenate(est)
print(json.dumps({"cases": out, "monte_carlo_se_400_16": float(np.sqrt((est ** 2).mean()))}))
