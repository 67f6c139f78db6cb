"""Write a flat table for `deno task bench --import`: <rows>/2 tasks, a bare
and a masked row each, 14 versions as 0/1 mask columns (masked rows draw
each with probability 1/2 from a fixed seed), reward equal to r_strict and
three more components, one checkpoint. Writes <out>/table.csv and
<out>/table.parquet (pyarrow, snappy).

    python3 bench/gen_import_table.py <rows> <out>
"""
import os
import sys

import numpy as np
import pandas as pd


def main(rows, out):
    n = rows // 2
    rng = np.random.default_rng(20261201)
    tasks = [f"t{i:07d}" for i in range(n)]
    frames = []
    for arm in ("bare", "masked"):
        df = pd.DataFrame({"task_id": tasks, "arm": arm, "checkpoint_id": "ckpt-1", "attempt": 0, "status": "completed"})
        bits = rng.integers(0, 2, size=(n, 14)) if arm == "masked" else np.zeros((n, 14), dtype=np.int64)
        for j in range(14):
            df[f"mask:s{j:02d}.v1"] = bits[:, j]
        r = rng.random(n).round(4)
        df["reward"] = r
        df["r_strict"] = r
        for c in ("r_success", "r_type", "r_attr"):
            df[c] = rng.random(n).round(4)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    os.makedirs(out, exist_ok=True)
    df.to_csv(os.path.join(out, "table.csv"), index=False)
    df.to_parquet(os.path.join(out, "table.parquet"), index=False)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
