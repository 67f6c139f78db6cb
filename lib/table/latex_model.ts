/**
 * How a table is laid out for LaTeX, before it is set (the Markdown and
 * HTML renderings keep the shared model as it is):
 *
 * - a column of estimates with intervals (`0.108 [0.043, 0.173]`, its
 *   header `coefficient [95% CI, task bootstrap, percentile]`) becomes an
 *   estimate column and an interval pair (lower, upper), each right-aligned
 *   so decimal points line up down the column; the header keeps the
 *   quantity and `95% CI` over the pair, the interval's type goes to the
 *   notes;
 * - provenance (sentences with a sha256, `seed N` fragments) leaves the
 *   printed notes for a comment block at the top of the file.
 *
 * @module
 */
import type { Table, TableNote } from "./table_model.ts";

/** A column as LaTeX sets it. */
export interface LatexColumn {
  /** Header text (plain). */
  readonly label: string;
  /** Alignment. */
  readonly align: "left" | "right" | "center";
  /** `plain` and `estimate` are ordinary columns; `lower` and `upper` are an interval's two ends. */
  readonly part: "plain" | "estimate" | "lower" | "upper";
}

/** A table laid out for LaTeX. */
export interface LatexModel {
  readonly caption: string;
  readonly label?: string | undefined;
  readonly columns: readonly LatexColumn[];
  readonly rows: readonly (readonly string[])[];
  /** Notes printed under the table. */
  readonly notes: readonly TableNote[];
  /** Provenance lines, written as comments. */
  readonly provenance: readonly string[];
}

const NUM = String.raw`[<>]?-?\d[\d.]*%?`;
const ESTIMATE_CELL = new RegExp(`^(${NUM}|—)(?:[ \\n]\\[(${NUM}), (${NUM})\\])?$`);
const INTERVAL_HEADER = /^(.*?) \[(\d+(?:\.\d+)?% CI)(?:, (.*))?\]$/;

/** Whether column `j` holds estimates with intervals (at least one), and nothing else. */
function intervalColumn(table: Table, j: number): boolean {
  if ((table.columns[j]?.align ?? "left") !== "right") return false;
  let intervals = 0;
  for (const row of table.rows) {
    const m = ESTIMATE_CELL.exec(row[j] ?? "");
    if (!m) return false;
    if (m[2] !== undefined) intervals++;
  }
  return intervals > 0;
}

/** Splits a note into printed text and provenance (sha256 sentences, seed fragments). */
function splitProvenance(note: string): { printed: string | null; provenance: string | null } {
  const sentences = note.split(/(?<=\.)\s+(?=[A-Z0-9])/);
  const kept: string[] = [];
  let moved = false;
  for (const sentence of sentences) {
    if (/\bsha256\b/.test(sentence)) {
      moved = true;
      continue;
    }
    const stripped = sentence.replace(/,? (?:bootstrap |simulation )?seed -?\d+(?=[,;.)]|$)/g, "");
    if (stripped !== sentence) moved = true;
    kept.push(stripped);
  }
  const printed = kept.join(" ").trim();
  return { printed: printed.length > 0 ? printed : null, provenance: moved ? note : null };
}

/**
 * Lays a table out for LaTeX (see the module documentation).
 *
 * @example
 * ```ts
 * import { latexModel } from "./latex_model.ts";
 * import { deepEqual } from "node:assert/strict";
 * const model = latexModel({
 *   caption: "T",
 *   columns: [{ label: "version" }, { label: "coefficient [95% CI, task bootstrap, percentile]", align: "right" }],
 *   rows: [["a", "0.108 [0.043, 0.173]"], ["b", "-0.020 [-0.110, 0.080]"]],
 *   notes: ["Intervals from 1000 draws, seed 7.", "Baseline x, sha256 abc."],
 * });
 * deepEqual(model.columns.map((c) => c.part), ["plain", "estimate", "lower", "upper"]);
 * deepEqual(model.rows[1], ["b", "-0.020", "[-0.110,", "0.080]"]);
 * deepEqual(model.notes, ["Intervals from 1000 draws.", "95% CI of coefficient: task bootstrap, percentile."]);
 * deepEqual(model.provenance, ["Intervals from 1000 draws, seed 7.", "Baseline x, sha256 abc."]);
 * ```
 */
export function latexModel(table: Table): LatexModel {
  const split = table.columns.map((_, j) => intervalColumn(table, j));
  const columns: LatexColumn[] = [];
  const conventions: string[] = [];
  table.columns.forEach((column, j) => {
    const align = column.align ?? "left";
    if (!split[j]) {
      columns.push({ label: column.label, align, part: "plain" });
      return;
    }
    // `quantity [95% CI, type]`, or a header with its own lines: `estimate at N\nfixed-n 95% CI`.
    const header = INTERVAL_HEADER.exec(column.label);
    const [first, ...rest] = column.label.split("\n");
    const quantity = header?.[1] ?? first!;
    const ci = header?.[2] ?? (rest.length > 0 ? rest.join(" ") : "95% CI");
    const type = header?.[3];
    columns.push({ label: quantity, align: "right", part: "estimate" });
    columns.push({ label: ci, align: "right", part: "lower" });
    columns.push({ label: ci, align: "right", part: "upper" });
    if (type !== undefined && type !== "see note") {
      conventions.push(`${ci} of ${quantity}: ${type}.`);
    }
  });
  const rows = table.rows.map((row) =>
    row.flatMap((cell, j) => {
      if (!split[j]) return [cell];
      const m = ESTIMATE_CELL.exec(cell)!;
      return m[2] === undefined ? [m[1]!, "", ""] : [m[1]!, `[${m[2]},`, `${m[3]}]`];
    })
  );
  const notes: TableNote[] = [];
  const provenance: string[] = [];
  for (const note of table.notes ?? []) {
    if (typeof note !== "string") {
      notes.push(note);
      continue;
    }
    const { printed, provenance: moved } = splitProvenance(note);
    if (printed !== null) notes.push(printed);
    if (moved !== null) provenance.push(moved);
  }
  notes.push(...conventions);
  return { caption: table.caption, label: table.label, columns, rows, notes, provenance };
}
