"""Native DuckDB (Python) doing what `gate sql` does, for bench/sql.ts:
load tables, run one query, print the result. One fresh process per call;
the bench times the whole process (interpreter start and import included).

usage: python3 bench/sql_native.py "<query>" <table>=<file>[,<file>...] ...

A .jsonl file list is read with read_json_auto (all files into one table),
a .parquet file with read_parquet.
"""
import sys

import duckdb

query, specs = sys.argv[1], sys.argv[2:]
con = duckdb.connect()
for spec in specs:
    name, files = spec.split("=", 1)
    paths = files.split(",")
    reader = "read_parquet" if paths[0].endswith(".parquet") else "read_json_auto"
    con.sql(f"create table {name} as select * from {reader}({paths!r})")
print(con.sql(query).fetchall())
