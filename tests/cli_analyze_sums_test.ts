/**
 * `gate analyze --sums` through the real CLI (a `deno run` subprocess with
 * the `gate` task's permissions), on sums that native DuckDB computed from
 * the tasks table of demo gate A's row analysis (tests/sums_fixture.ts):
 *
 * - the bootstrap block of sums_analysis.json is the row analysis's
 *   contributions.json `bootstrap`, value for value (same seed, the same
 *   draws bit for bit); the coefficients and CR1 errors agree to 1e-12
 *   (the reference: the row analysis, whose CR1 matches statsmodels,
 *   tests/fit_ols_test.ts); the selection is the same;
 * - every output says it came from sums and names the file's sha256, and
 *   the checks and outputs sums cannot give are listed (`not_made`);
 * - a bad sums file (missing column, wrong type, non-finite value, X'X not
 *   symmetric, pair columns of another k, wrong schema version) is exit 2
 *   and one line naming the file and field, and nothing is written;
 * - --sums refuses gate directories and options that need rows.
 *
 * Needs `deno` and `python3` with `duckdb`.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../lib/core/sha256.ts";
import { NOT_MADE } from "../lib/analyze/sums_analysis.ts";
import { DEMO, gate } from "./gate_process.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { duckdbSums } from "./sums_fixture.ts";

const GATE_A = join(DEMO, "ckpt-a", "gate-a");
const DRAWS = ["--bootstrap", "300", "--seed", "5"];

/** The generated query with the line of column `name` replaced (or removed with ""). */
function replaceColumn(query: string, name: string, line: string): string {
  const lines = query.split("\n");
  const at = lines.findIndex((l) => l.endsWith(`AS "${name}",`) || l.endsWith(`AS "${name}"`));
  ok(at >= 0, `no column ${name} in the query`);
  if (line === "") lines.splice(at, 1);
  else lines[at] = `  ${line},`;
  return lines.join("\n");
}

Deno.test({
  name: "gate analyze --sums: the row analysis's bootstrap, from DuckDB's sums, through the CLI",
  ignore: ignoreWithout("python3", "gate analyze --sums"),
  fn: async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-cli-sums-" });
    try {
      const rows = join(dir, "rows");
      const ran = await gate(dir, ["analyze", GATE_A, ...DRAWS, "--out", rows, "--quiet"]);
      equal(ran.code, 0, ran.stderr);
      const tasks = join(rows, "tasks.parquet");
      const sums = join(dir, "sums.parquet");
      const query = await duckdbSums(tasks, sums);
      const sha = sha256Hex(await Deno.readFile(sums));
      const c = JSON.parse(await Deno.readTextFile(join(rows, "contributions.json")));
      const sel = JSON.parse(await Deno.readTextFile(join(rows, "selection.json")));

      await t.step("same numbers, same draws", async () => {
        const out = join(dir, "from-sums");
        const r = await gate(dir, [
          "analyze",
          "--sums",
          "sums.parquet",
          "--budget-k",
          "10",
          ...DRAWS,
          "--out",
          "from-sums",
        ]);
        equal(r.code, 0, r.stderr);
        const doc = JSON.parse(await Deno.readTextFile(join(out, "sums_analysis.json")));
        deepEqual(doc.bootstrap, c.bootstrap, "bootstrap block equal to the row analysis's");
        let est = 0, se = 0;
        for (
          const [m, mo] of Object.entries(c.metrics) as [
            string,
            { coefficients: Record<string, { estimate: number; se_cluster: number }> },
          ][]
        ) {
          for (const [v, co] of Object.entries(mo.coefficients)) {
            const s = doc.metrics[m].coefficients[v];
            est = Math.max(est, Math.abs(s.estimate - co.estimate));
            se = Math.max(se, Math.abs(s.se_cluster - co.se_cluster) / co.se_cluster);
            equal(s.se_hc3, null);
          }
          for (const f of ["n", "k", "df_resid"]) {
            equal(doc.metrics[m][f], c.metrics[m][f], `${m}.${f}`);
          }
          // Summed per task, then over tasks: the same mean to rounding.
          ok(Math.abs(doc.metrics[m].delta_mean - c.metrics[m].delta_mean) <= 1e-15);
          ok(Math.abs(doc.metrics[m].ssr - c.metrics[m].ssr) <= 1e-12 * c.metrics[m].ssr);
          equal(doc.metrics[m].masked_mean, null);
        }
        console.log(
          `max |estimate from sums - from rows| ${est}, max relative se_cluster difference ${se}`,
        );
        ok(est <= 1e-12 && se <= 1e-12);
        deepEqual(doc.selection.selected, sel.selected);
        const noAlpha = (ds: { alpha: number }[]) => ds.map(({ alpha: _, ...d }) => d);
        deepEqual(noAlpha(doc.selection.decisions), noAlpha(sel.decisions));
        doc.selection.decisions.forEach((d: { alpha: number }, i: number) =>
          ok(Math.abs(d.alpha - sel.decisions[i].alpha) <= 1e-12)
        );
        deepEqual(doc.source, {
          kind: "sums",
          file: "sums.parquet",
          sha256: sha,
          format: "gatelab.sums/v1",
          tasks: 400,
          rows: 400,
        });
        deepEqual(doc.not_made, NOT_MADE);
        deepEqual(doc.not_made.map((n: { output: string }) => n.output), [
          "validation",
          "se_hc3",
          "not_estimable.leverage",
          "diagnostics",
          "tasks",
          "masked_mean, bare_mean",
          "ledger",
        ]);
        const csv = (await Deno.readTextFile(join(out, "coefficients.csv"))).trim().split("\n");
        equal(csv.length, 1 + 7 * 14);
        ok(csv[0]!.startsWith("source,sums_sha256,metric,version_id"));
        ok(csv.slice(1).every((l) => l.startsWith(`sums,${sha},`)));
        deepEqual(
          [...Deno.readDirSync(out)].map((e) => e.name).sort(),
          [
            ".gatelab-output.json",
            "coefficients.csv",
            "coefficients.parquet",
            "sums_analysis.json",
          ],
        );
        const lines = r.stdout.trim().split("\n");
        equal(
          lines.at(-2),
          "not made: 7 check(s) and output(s) need rows, not sums (validation, " +
            "se_hc3, not_estimable.leverage, diagnostics, ...); listed as not_made in from-sums/sums_analysis.json",
        );
        match(
          lines.at(-1)!,
          new RegExp(
            `^ok: from sums sums.parquet \\(sha256 ${
              sha.slice(0, 12)
            }\\): 400 tasks, 400 pairs, 14 columns; selected 10/10: explicit-constraint-checklist.v1, `,
          ),
        );
      });

      const [a, b] = ["query-formulation.v1", "query-refinement.v1"];
      const bad: [string, (q: string) => string, RegExp][] = [
        [
          "missing column",
          (q) => replaceColumn(q, `xx:${a}:${b}`, ""),
          new RegExp(
            `^schema_error  bad.parquet xx:${a}:${b}  missing column: the 14 x: columns need 91 xx: pair columns`,
          ),
        ],
        [
          "wrong type",
          (q) => replaceColumn(q, "xy:reward:" + a, `'0.5' AS "xy:reward:${a}"`),
          new RegExp(
            `^schema_error  bad.parquet xy:reward:${a}  row 1 is not a number \\(string\\)$`,
          ),
        ],
        [
          "non-finite value",
          (q) => replaceColumn(q, "yy:r_type", `CAST('inf' AS DOUBLE) AS "yy:r_type"`),
          /^schema_error {2}bad.parquet yy:r_type {2}row 1 is Infinity: not a finite number$/,
        ],
        [
          "non-symmetric X'X",
          (q) => q.replace("\nFROM", `,\n  CAST(0 AS BIGINT) AS "xx:${b}:${a}"\nFROM`),
          new RegExp(
            `^schema_error  bad.parquet xx:${b}:${a}  row 1 is 0, xx:${a}:${b} 1: X'X is not symmetric$`,
          ),
        ],
        [
          "inconsistent k",
          (q) => q.replace("\nFROM", `,\n  0.0 AS "xy:reward:ghost.v1"\nFROM`),
          /^schema_error {2}bad.parquet xy:reward:ghost.v1 {2}unexpected column: not a sum of the 14 versions named by the x: columns and the 7 metrics named by the yy: columns \(inconsistent k\)$/,
        ],
        [
          "schema version",
          (q) => q.replace("'gatelab.sums/v1' AS", "'gatelab.sums/v2' AS"),
          /^schema_error {2}bad.parquet format {2}row 1 is "gatelab.sums\/v2", expected "gatelab.sums\/v1"$/,
        ],
      ];
      for (const [what, edit, line] of bad) {
        await t.step(`refused: ${what}`, async () => {
          const file = join(dir, "bad.parquet");
          await duckdbSums(tasks, file, (q) => {
            const edited = edit(q);
            ok(edited !== q && q === query);
            return edited;
          });
          const r = await gate(dir, ["analyze", "--sums", "bad.parquet", "--out", "bad-out"]);
          equal(r.code, 2, r.stderr);
          const err = r.stderr.trim().split("\n");
          equal(err.length, 1, r.stderr);
          match(err[0]!, line);
          equal(r.stdout, "");
          ok(!(await exists(join(dir, "bad-out"))), "nothing written");
        });
      }

      await t.step("refused: not a Parquet file", async () => {
        await Deno.writeTextFile(join(dir, "text.parquet"), "split,task_id\n");
        const r = await gate(dir, ["analyze", "--sums", "text.parquet", "--out", "bad-out"]);
        equal(r.code, 2, r.stderr);
        match(
          r.stderr.trim(),
          /^parse_error {2}text\.parquet {2}cannot read as Parquet \(not a Parquet file, or truncated\): [^\n]+$/,
        );
        ok(!(await exists(join(dir, "bad-out"))));
      });

      await t.step("usage: no gate directories or row options with --sums", async () => {
        for (
          const [args, line] of [
            [
              ["analyze", "--sums", "sums.parquet", GATE_A, "--out", "o"],
              /^usage_error {2}--sums sums.parquet takes no gate directory/,
            ],
            [
              ["analyze", "--sums", "sums.parquet", "--exploratory", "seed_mismatch", "--out", "o"],
              /^usage_error {2}--exploratory needs rows: it cannot be used with --sums/,
            ],
            [
              ["analyze", GATE_A, "--map", "m.json", "--out", "o"],
              /^usage_error {2}--map is read only with --sums/,
            ],
            [
              ["analyze", "--out", "o"],
              /^usage_error {2}analyze needs at least one gate directory \(or --sums <parquet>\)/,
            ],
            [
              ["analyze", "--sums", "nope.parquet", "--out", "o"],
              /^usage_error {2}--sums nope.parquet does not exist; expected a sums table \(Parquet\)/,
            ],
          ] as const
        ) {
          const r = await gate(dir, [...args]);
          equal(r.code, 2, r.stderr);
          match(r.stderr.trim(), line);
          ok(!(await exists(join(dir, "o"))));
        }
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
