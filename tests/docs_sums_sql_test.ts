/**
 * docs/performance.md, "Past one machine": its SQL is what `sumsTableSql`
 * writes for the pandas example's table, and it runs in native DuckDB
 * (Python `duckdb`): over a generated paired table of 300 tasks (one or two
 * rows each, two versions), the sums it writes give, through gatelab's
 * reader and fit, numpy's least-squares coefficients on the rows
 * (`numpy.linalg.lstsq`, the independent reference) within 1e-12.
 *
 * Needs `python3` with `duckdb` and `numpy`.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { sumsTableSql } from "../lib/analyze/sums_sql.ts";
import { readSumsTable } from "../lib/analyze/sums_read.ts";
import { fitSums } from "../lib/analyze/sums_fit.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { python } from "./sums_fixture.ts";

const DOC = await Deno.readTextFile(new URL("../docs/performance.md", import.meta.url));

/** The first ```sql block after the heading. */
function docSql(): string {
  const section = DOC.slice(DOC.indexOf("## Past one machine"));
  const start = section.indexOf("```sql\n") + "```sql\n".length;
  return section.slice(start, section.indexOf("\n```", start));
}

Deno.test("docs/performance.md: the sums SQL is sumsTableSql's for the pandas example", () => {
  equal(
    docSql(),
    sumsTableSql({
      versions: ["query.v1", "attr.v1"],
      metrics: ["reward"],
      source: "read_parquet('analysis/tasks.parquet', file_row_number = true)",
    }),
  );
});

Deno.test({
  name: "docs/performance.md: the sums SQL runs in DuckDB and its sums give numpy's coefficients",
  ignore: ignoreWithout("python3", "docs sums SQL"),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-docs-sums-" });
    try {
      const sql = docSql().replace("analysis/tasks.parquet", join(dir, "tasks.parquet"));
      const out = await python(`
import duckdb, json, numpy as np, pandas as pd
rng = np.random.default_rng(3)
rows = []
for t in range(300):
    for r in range(1 + t % 2):
        q, a = rng.integers(0, 2, size=2)
        bare = rng.random()
        rows.append({"split": "val", "task_id": f"t{t:03d}", "reward_bare": bare,
                     "reward_masked": bare + 0.1 * q + 0.05 * a + rng.normal(0, 0.05),
                     "mask:query.v1": int(q), "mask:attr.v1": int(a)})
df = pd.DataFrame(rows)
df.to_parquet(${JSON.stringify(join(dir, "tasks.parquet"))}, index=False)
duckdb.sql("COPY (" + ${JSON.stringify(sql)} + ") TO " + ${
        JSON.stringify(`'${join(dir, "sums.parquet")}'`)
      } + " (FORMAT parquet)")
X = df[["mask:query.v1", "mask:attr.v1"]].to_numpy(float)
y = (df["reward_masked"] - df["reward_bare"]).to_numpy()
print(json.dumps([float(b) for b in np.linalg.lstsq(X, y, rcond=None)[0]]))
`);
      const reference: number[] = JSON.parse(out);
      const table = await readSumsTable(join(dir, "sums.parquet"));
      equal(table.tasks, 300);
      const fit = fitSums(table);
      if (fit.kind !== "fit") throw new Error("not identifiable");
      const beta = fit.metrics["reward"]!.estimate;
      reference.forEach((b, j) => ok(Math.abs(beta[j]! - b) <= 1e-12, `${beta[j]} vs ${b}`));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
