"""Write the hostile Parquet tables of tests/import_limits_test.ts into a
directory, at test time (they are never committed): small on disk, huge
once decoded.

- dense.parquet: 20,000,000 identical rows (task_id, arm, reward and a mask
  column), ZSTD, 20 row groups of 1,000,000 rows: a few hundred KB.
- rows.parquet: 10,000,000 rows over 5,000 task ids, ZSTD: a few MB.

Each is written row group by row group with pyarrow's ParquetWriter, so
the script itself holds one row group at a time.

    python3 tests/hostile_tables.py <dir>
"""
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def dense(path):
    n = 1_000_000
    group = pa.table({
        "task_id": pa.array(["t0"] * n),
        "arm": pa.array(["masked"] * n),
        "reward": pa.array([0.5] * n, pa.float64()),
        "mask:a.v1": pa.array([1] * n, pa.int64()),
    })
    with pq.ParquetWriter(path, group.schema, compression="zstd") as w:
        for _ in range(20):
            w.write_table(group)


def counting(path):
    n = 1_000_000
    ids = pa.array([f"t{i}" for i in range(5000)])
    group = pa.table({
        "task_id": pa.DictionaryArray.from_arrays(pa.array(np.arange(n) % 5000, pa.int32()), ids),
        "arm": pa.array(["bare", "masked"] * (n // 2)),
        "reward": pa.array(np.arange(n) % 100 / 100.0, pa.float64()),
        "mask:a.v1": pa.array(np.arange(n) % 2, pa.int64()),
    })
    with pq.ParquetWriter(path, group.schema, compression="zstd") as w:
        for _ in range(10):
            w.write_table(group)


def main(out):
    os.makedirs(out, exist_ok=True)
    dense(os.path.join(out, "dense.parquet"))
    counting(os.path.join(out, "rows.parquet"))


if __name__ == "__main__":
    main(sys.argv[1])
    # pyarrow's thread pools can abort the interpreter as it exits, after the work is done
    # ("terminate called without an active exception", apache/arrow issue 34314): leave
    # without the teardown.
    sys.stdout.flush()
    os._exit(0)
