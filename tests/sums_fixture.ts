/**
 * Sums tables made by native DuckDB (Python `duckdb`) from the tasks table
 * of a row analysis of demo gates, for the sums tests: the row analysis is
 * `gate analyze --bootstrap 0` through the CLI, the SQL is
 * `sumsTableSql(pairedLayout(columns))` (lib/analyze/sums_sql.ts), run by
 * DuckDB with `COPY (...) TO '<file>' (FORMAT parquet)`.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { pairedLayout, sumsTableSql } from "../lib/analyze/sums_sql.ts";
import { gate } from "./gate_process.ts";

/** Runs a Python snippet; returns its stdout. */
export async function python(code: string): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** The column names of a Parquet file, read by DuckDB. */
export async function parquetColumns(file: string): Promise<string[]> {
  return JSON.parse(
    await python(
      `import duckdb, json; print(json.dumps(duckdb.sql(${
        JSON.stringify(`select * from read_parquet('${file}') limit 0`)
      }).columns))`,
    ),
  );
}

/** `gate analyze <gates> --bootstrap 0 --out <dir>/rows`; returns its tasks.parquet. */
export async function rowTasks(dir: string, gates: readonly string[]): Promise<string> {
  const out = join(dir, "rows");
  const ran = await gate(dir, ["analyze", ...gates, "--bootstrap", "0", "--out", out, "--quiet"]);
  equal(ran.code, 0, ran.stderr);
  return join(out, "tasks.parquet");
}

/**
 * Writes the sums table of `tasks` (a paired table) to `sums` with DuckDB,
 * through `sql` (the generated query; a test may change it first).
 */
export async function duckdbSums(
  tasks: string,
  sums: string,
  edit: (query: string) => string = (q) => q,
): Promise<string> {
  const query = edit(sumsTableSql({
    ...pairedLayout(await parquetColumns(tasks)),
    source: `read_parquet('${tasks}', file_row_number = true)`,
  }));
  await python(
    `import duckdb; duckdb.sql(${JSON.stringify(`COPY (${query}) TO '${sums}' (FORMAT parquet)`)})`,
  );
  return query;
}
