"""Reads gatelab's tidy tables with the readers users have, for
tests/tidy_readers_test.ts: pandas (Parquet, CSV), polars (Parquet, CSV)
and native DuckDB (Parquet, CSV), each in one line as docs/FORMAT.md shows.

usage: python3 scripts/read_tables.py <analysis_out_dir> <version_id>

Prints one JSON object: reader -> table -> {rows, columns, picks}, where
picks are a handful of values (row of metric "reward" and the version for
coefficients and selection; row 5 for tasks; row 10 for draws). Floats are
printed by Python's json (shortest round-trip repr), so the test compares
them with the JSON's numbers exactly.
"""
import json
import math
import os
import sys

import duckdb
import pandas as pd
import polars as pl

out, version = sys.argv[1], sys.argv[2]
TABLES = ["coefficients", "tasks", "selection", "draws"]


def clean(v):
    """Python value for JSON: numpy scalars as Python, NaN/None as None, lists as lists."""
    if v is None:
        return None
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    return v


def picks(table, records):
    """The values the test checks, from a list of row dicts."""
    if table in ("coefficients", "selection"):
        row = next(r for r in records if r["metric"] == "reward" and r["version_id"] == version)
        keys = ["estimate", "se", "p", "se_cluster", "ci_low", "ci_high", "rank", "status"] \
            if table == "coefficients" else ["alpha", "rank", "retired", "status"]
    elif table == "tasks":
        row = records[5]
        keys = ["task_id", "sample_id", "reward_delta", "r_strict_masked", f"mask:{version}", "injected"]
    else:
        row = records[10]
        keys = ["draw", "metric", "version_id", "estimate"]
    return {k: clean(row[k]) for k in keys}


# Columns whose type every reader must infer from the file alone (none has missing values):
# text, float, integer and boolean, the four kinds of a tidy column.
TYPED = {"coefficients": ["metric", "estimate"], "selection": ["status", "alpha", "budget_k", "retired"]}
KINDS = {"bool": "bool", "boolean": "bool", "float64": "float", "double": "float", "int64": "int",
         "int32": "int", "bigint": "int", "integer": "int", "object": "str", "str": "str",
         "string": "str", "utf8": "str", "varchar": "str"}


def kinds(table, types):
    """The checked columns' types (column -> reader's type name), as bool, float, int or str."""
    return {c: KINDS.get(str(types[c]).lower(), str(types[c])) for c in TYPED.get(table, [])}


def result(table, columns, records, types):
    return {"rows": len(records), "columns": list(columns), "picks": picks(table, records),
            "types": kinds(table, types)}


readers = {}
for name in ("pandas_parquet", "pandas_csv", "polars_parquet", "polars_csv",
             "duckdb_parquet", "duckdb_csv"):
    readers[name] = {}
for table in TABLES:
    parquet = f"{out}/{table}.parquet"
    csv = f"{out}/{table}.csv"
    df = pd.read_parquet(parquet)
    readers["pandas_parquet"][table] = result(table, df.columns, df.to_dict("records"), df.dtypes)
    df = pd.read_csv(csv, float_precision="round_trip")
    records = df.to_dict("records")
    if table == "tasks":
        for r in records:
            r["injected"] = json.loads(r["injected"])
    readers["pandas_csv"][table] = result(table, df.columns, records, df.dtypes)
    df = pl.read_parquet(parquet)
    readers["polars_parquet"][table] = result(table, df.columns, df.to_dicts(), df.schema)
    df = pl.read_csv(csv, infer_schema_length=None)
    records = df.to_dicts()
    if table == "tasks":
        for r in records:
            r["injected"] = json.loads(r["injected"])
    readers["polars_csv"][table] = result(table, df.columns, records, df.schema)
    for kind, path in (("parquet", parquet), ("csv", csv)):
        rel = duckdb.sql(f"from '{path}'")
        rows = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
        if table == "tasks" and kind == "csv":
            for r in rows:
                r["injected"] = json.loads(r["injected"])
        types = dict(zip(rel.columns, rel.types))
        readers[f"duckdb_{kind}"][table] = result(table, rel.columns, rows, types)
print(json.dumps(readers))
# pyarrow's thread pools can abort the interpreter as it exits, after the work is done
# ("terminate called without an active exception", apache/arrow issue 34314): leave
# without the teardown.
sys.stdout.flush()
os._exit(0)
