/**
 * The files and lines of `gate analyze --sums`: sums_analysis.json and the
 * tidy `coefficients` table (CSV and Parquet, one row per metric and
 * version, its `source` column `sums`), every one saying the analysis came
 * from sums and which file (its sha256).
 *
 * @module
 */
import type { FileContents } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { tidyFromRows } from "../tidy/tidy_table.ts";
import type { SumsAnalysisDocument, SumsCoefficient } from "./sums_analysis.ts";

/** One row of the sums analysis's `coefficients` table. */
interface SumsCoefficientRow {
  readonly source: string;
  readonly sums_sha256: string;
  readonly metric: string;
  readonly version_id: string;
  readonly slot_id: string;
  readonly chunk_id: string;
  readonly role: string;
  readonly estimate: number;
  readonly cov_type: string;
  readonly se_cluster: number | null;
  readonly z_cluster: number | null;
  readonly p_cluster: number | null;
  readonly se_bootstrap: number | null;
  readonly interval: string | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  readonly status: string | null;
  readonly rank: number | null;
}

/**
 * Every file `gate analyze --sums` writes into `--out`.
 *
 * @param doc The analysis document.
 * @returns File name to contents.
 */
export async function sumsAnalysisFiles(
  doc: SumsAnalysisDocument,
): Promise<Record<string, FileContents>> {
  const decisions = new Map(
    (doc.selection.decisions as { version_id: string; status: string; rank: number | null }[])
      .map((d) => [d.version_id, d]),
  );
  const rows: SumsCoefficientRow[] = [];
  for (const [metric, out] of Object.entries(doc.metrics)) {
    const coefficients = out["coefficients"] as Record<string, SumsCoefficient>;
    for (const column of doc.columns) {
      const c = coefficients[column.version_id]!;
      const d = metric === doc.selection.metric ? decisions.get(column.version_id) : undefined;
      rows.push({
        source: "sums",
        sums_sha256: doc.source.sha256,
        metric,
        version_id: column.version_id,
        slot_id: column.slot_id,
        chunk_id: column.chunk_id,
        role: column.role,
        estimate: c.estimate,
        cov_type: "CR1",
        se_cluster: c.se_cluster,
        z_cluster: c.t_cluster,
        p_cluster: c.p_cluster,
        se_bootstrap: c.se_bootstrap ?? null,
        interval: doc.bootstrap?.interval ?? null,
        ci_low: c.ci?.[0] ?? null,
        ci_high: c.ci?.[1] ?? null,
        status: d?.status ?? null,
        rank: d?.rank ?? null,
      });
    }
  }
  const table = tidyFromRows("coefficients", {
    source: "str",
    sums_sha256: "str",
    metric: "str",
    version_id: "str",
    slot_id: "str",
    chunk_id: "str",
    role: "str",
    estimate: "f64",
    cov_type: "str",
    se_cluster: "f64",
    z_cluster: "f64",
    p_cluster: "f64",
    se_bootstrap: "f64",
    interval: "str",
    ci_low: "f64",
    ci_high: "f64",
    status: "str",
    rank: "i32",
  }, rows);
  return {
    "sums_analysis.json": `${JSON.stringify(doc, null, 2)}\n`,
    ...await tidyFiles([table]),
  };
}

/**
 * The lines `gate analyze --sums` prints: the selection metric's mean
 * delta and decisions (details), then what was not made and the `ok:` line.
 *
 * @param doc The analysis document.
 * @param out The output directory.
 * @returns Details and summary lines.
 *
 * @example
 * ```ts
 * import { sumsAnalysisLines } from "./sums_files.ts";
 * import { equal } from "node:assert/strict";
 * const doc = { source: { file: "s.parquet", sha256: "ab".repeat(32), tasks: 2, rows: 3 },
 *   columns: [{ version_id: "a" }], not_made: [{ output: "se_hc3", message: "m" }],
 *   metrics: { reward: { delta_mean: 0.5 } },
 *   selection: { metric: "reward", budget_k: 1, selected: ["a"],
 *     decisions: [{ version_id: "a", rank: 1, alpha: 0.5, status: "selected", retired: false }] } };
 * const lines = sumsAnalysisLines(doc as never, "out");
 * equal(lines.summary[1], "ok: from sums s.parquet (sha256 abababababab): 2 tasks, 3 pairs, 1 columns; selected 1/1: a; wrote out/");
 * ```
 */
export function sumsAnalysisLines(
  doc: SumsAnalysisDocument,
  out: string,
): { details: string[]; summary: string[] } {
  const metric = doc.selection.metric;
  const m = doc.metrics[metric]!;
  const details = [
    `${metric}: delta ${
      (m["delta_mean"] as number).toFixed(4)
    } (from sums; masked and bare means not in them)`,
  ];
  const decisions = doc.selection.decisions as {
    version_id: string;
    rank: number | null;
    alpha: number;
    status: string;
    retired: boolean;
  }[];
  for (const d of [...decisions].sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))) {
    details.push(
      `  ${String(d.rank ?? "-").padStart(3)}  ${d.version_id.padEnd(28)} ${
        d.alpha.toFixed(4).padStart(8)
      }  ${d.status}${d.retired ? " (retired)" : ""}`,
    );
  }
  const names = doc.not_made.map((n) => n.output);
  const shown = names.slice(0, 4).join(", ") + (names.length > 4 ? ", ..." : "");
  const { file, sha256, tasks, rows } = doc.source;
  return {
    details,
    summary: [
      `not made: ${names.length} check(s) and output(s) need rows, not sums (${shown}); ` +
      `listed as not_made in ${out}/sums_analysis.json`,
      `ok: from sums ${file} (sha256 ${sha256.slice(0, 12)}): ${tasks} tasks, ${rows} pairs, ` +
      `${doc.columns.length} columns; selected ${doc.selection.selected.length}/${doc.selection.budget_k}: ` +
      `${doc.selection.selected.join(", ") || "none"}; wrote ${out}/`,
    ],
  };
}
