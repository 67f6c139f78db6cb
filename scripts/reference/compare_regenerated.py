"""Compares reference JSON that scripts/reference/regenerate.sh rewrote with
the committed files (.ci/run): the same keys, strings and shapes, and every
number equal within 1e-10 relative (1e-300 absolute), since BLAS builds on
different processors round the last bits of a least-squares solve
differently (seen: 3e-12 in a p-value of 1.6e-27 from a leverage-1 fit, and
a last digit of a value rounded to 12 decimals). A stale reference (a
script or input that changed) differs far more. Restores every file it was given (git checkout), so the tree stays as
checked out; exits 1 naming the first difference of each file beyond it.

usage: python3 scripts/reference/compare_regenerated.py <file>...
"""
import json
import math
import subprocess
import sys

REL = 1e-10


def first_difference(a, b, path="$"):
    """Where a (committed) and b (regenerated) differ beyond REL, or None."""
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or a is None:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isclose(a, b, rel_tol=REL, abs_tol=1e-300):
            return None
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    return f"{path}: {type(a).__name__} != {type(b).__name__}"


status = 0
for name in sys.argv[1:]:
    with open(name) as f:
        regenerated = json.load(f)
    committed = json.loads(subprocess.run(["git", "show", f"HEAD:{name}"], check=True,
                                          capture_output=True, text=True).stdout)
    d = first_difference(committed, regenerated)
    if d:
        print(f"{name}: {d}", file=sys.stderr)
        status = 1
    else:
        print(f"{name}: equal within {REL:g} relative (only in the last bits a BLAS build rounds)")
subprocess.run(["git", "checkout", "--", *sys.argv[1:]], check=True)
sys.exit(status)
