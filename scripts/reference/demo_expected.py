"""Reference values for lib/demo/webshop.ts expectedWebshopRewards.

Independent computation with scipy.integrate.quad over the rollout shock
(normal, sd 0.5) of the WebShop-like component model documented in
lib/demo/params.ts: per component p_c = sigmoid(base_c + difficulty +
offset_c + shift_c + shock); r_type = 1 w.p. p_type, else 0.5 w.p. 0.6;
r_strict = E[r_type] * (n_attr p_attr + n_opt p_opt + p_price) / (n_attr + n_opt + 1)
given the shock; r_success = p_type p_attr^n_attr p_opt^n_opt p_price.

Run from the repository root:
    python3 scripts/reference/demo_expected.py > tests/data/reference/demo_expected.json
(scripts/reference/regenerate.sh does; tests/demo_model_test.ts reads it).
"""
import json

import numpy as np
from scipy import integrate, stats

BASE = [1.6, 0.7, 0.5, 0.6]
SD = 0.5
HALF = 0.6


def expected(difficulty, offsets, n_attr, n_opt, shift):
    def probs(z):
        return [1 / (1 + np.exp(-(BASE[c] + difficulty + offsets[c] + shift[c] + SD * z))) for c in range(4)]

    def e(f):
        return integrate.quad(lambda z: f(probs(z)) * stats.norm.pdf(z), -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12)[0]

    etype = lambda p: p[0] + 0.5 * HALF * (1 - p[0])
    credit = lambda p: (n_attr * p[1] + n_opt * p[2] + p[3]) / (n_attr + n_opt + 1)
    return {
        "r_strict": e(lambda p: etype(p) * credit(p)),
        "r_success": e(lambda p: p[0] * p[1] ** n_attr * p[2] ** n_opt * p[3]),
        "r_type": e(etype),
        "r_attr": e(lambda p: p[1]),
        "r_option": e(lambda p: p[2]),
        "r_price": e(lambda p: p[3]),
    }


CASES = [
    (0.0, [0, 0, 0, 0], 2, 1, [0, 0, 0, 0]),
    (-0.8, [0.3, -0.2, 0.1, 0.0], 3, 2, [1.3, 0.6, 0.45, 0.4]),
]
with np.errstate(over="ignore"):  # exp overflows to inf far in the tails: sigmoid 0, harmless
    doc = [{"difficulty": d, "offsets": o, "nAttr": a, "nOpt": n, "shift": sh,
             "expected": {k: round(v, 12) for k, v in expected(d, o, a, n, sh).items()}}
           for d, o, a, n, sh in CASES]
print(json.dumps(doc, indent=1))
