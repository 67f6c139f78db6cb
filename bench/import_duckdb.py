"""The native reference of `deno task bench --import`: DuckDB (Python, its
own multi-threaded CSV and Parquet readers) reads the same table and writes
it as JSON Lines, one object per row. Prints the wall time of the work
(import of duckdb excluded) in ms as JSON.

    python3 bench/import_duckdb.py <table.csv|table.parquet> <out.jsonl>
"""
import json
import sys
import time

import duckdb


def main(src, out):
    t0 = time.perf_counter()
    con = duckdb.connect()
    reader = "read_parquet" if src.endswith(".parquet") else "read_csv"
    con.execute(f"COPY (SELECT * FROM {reader}(?)) TO '{out}' (FORMAT JSON)", [src])
    print(json.dumps({"work_ms": (time.perf_counter() - t0) * 1000}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
