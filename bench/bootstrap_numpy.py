"""numpy's best vectorised task bootstrap, the reference side of `deno task bench`.

Same problem as the gatelab kernel: N tasks, M 0/1 columns, B draws of task
counts; X'WX and X'Wy for all draws at once as (counts @ per-row outer
products), then one batched solve. Prints one JSON line with the timing.

Usage: python3 bench/bootstrap_numpy.py [--tasks 400] [--columns 16] [--metrics 1]
       [--draws 10000] [--repeats 3] [--unset-openblas-env]

--unset-openblas-env removes OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE before
numpy loads (set in some environments, they pin a slower kernel).
"""
import argparse
import json
import os
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=400)
    ap.add_argument("--columns", type=int, default=16)
    ap.add_argument("--metrics", type=int, default=1)
    ap.add_argument("--draws", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--unset-openblas-env", action="store_true")
    args = ap.parse_args()
    unset = []
    if args.unset_openblas_env:
        for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            if name in os.environ:
                del os.environ[name]
                unset.append(name)
    import numpy as np  # noqa: E402  (after the environment change)

    blas = blas_info(np)
    rng = np.random.default_rng(1)
    n, k, m, b = args.tasks, args.columns, args.metrics, args.draws
    x = (rng.random((n, k)) < 0.5).astype(np.float64)
    y = rng.random((n, m))
    times = []
    solve_times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        # Blocks of draws keep the count matrix near 256 MB at large N.
        block = max(1, min(b, (1 << 25) // n))
        outer = (x[:, :, None] * x[:, None, :]).reshape(n, k * k)
        xy = (x[:, :, None] * y[:, None, :]).reshape(n, k * m)
        beta = np.empty((b, k, m))
        count_s = 0.0
        for d0 in range(0, b, block):
            bb = min(block, b - d0)
            tc = time.perf_counter()
            idx = rng.integers(0, n, size=(bb, n))
            flat = (idx + (np.arange(bb) * n)[:, None]).ravel()
            counts = np.bincount(flat, minlength=bb * n).reshape(bb, n).astype(np.float64)
            count_s += time.perf_counter() - tc
            xtx = (counts @ outer).reshape(bb, k, k)
            xty = (counts @ xy).reshape(bb, k, m)
            beta[d0:d0 + bb] = np.linalg.solve(xtx, xty)
        t1 = time.perf_counter()
        times.append((t1 - t0) * 1000)
        solve_times.append((t1 - t0 - count_s) * 1000)
        assert beta.shape == (b, k, m)
    print(json.dumps({"side": "numpy", "ms": times, "best_ms": min(times),
                      "best_ms_without_resampling": min(solve_times), "blas": blas,
                      "unset_env": unset, "numpy": np.__version__}))


def blas_info(np) -> dict:
    """Which BLAS numpy uses: threadpoolctl if installed, else numpy's config."""
    try:
        from threadpoolctl import threadpool_info  # type: ignore

        return {"source": "threadpoolctl", "info": threadpool_info()}
    except ImportError:
        pass
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg.get("Build Dependencies", {}).get("blas", {})
        core = None
        try:
            import numpy._core._multiarray_umath as mu  # noqa: F401
            from numpy.linalg import _umath_linalg  # noqa: F401
        except Exception:
            pass
        lib = openblas_corename()
        if lib:
            core = lib
        return {"source": "numpy.show_config (threadpoolctl not installed)",
                "name": blas.get("name"), "version": blas.get("version"), "openblas_core": core}
    except Exception as error:  # pragma: no cover
        return {"source": "unknown", "error": str(error)}


def openblas_corename():
    """Asks the loaded OpenBLAS for its kernel (openblas_get_corename) via ctypes."""
    import ctypes
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line})
        for path in paths:
            lib = ctypes.CDLL(path)
            for fn in ("openblas_get_corename", "scipy_openblas_get_corename64_", "scipy_openblas_get_corename"):
                if hasattr(lib, fn):
                    f = getattr(lib, fn)
                    f.restype = ctypes.c_char_p
                    return f().decode()
    except Exception:
        return None
    return None


if __name__ == "__main__":
    sys.exit(main())
