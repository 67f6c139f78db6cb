/**
 * The study-wide tables, `<out>/tables/`: every tidy table the built
 * steps wrote (each Parquet file their output lists at its top level),
 * stacked by name over the steps in study order, with five columns in
 * front: `study`, `step`, `gate`, `checkpoint_id` and `round` (see
 * `StepFacts`; where a step's table has its own `gate`, `checkpoint_id` or
 * `round`, its values stand there, as text: the `tasks` table's `round` is
 * the row's gate; its own `study` or `step` is kept as `<table>_study`,
 * `<table>_step`). Columns are the union of the steps' columns by name, in the order
 * first seen; a step without a column has it missing. A column whose kind
 * differs between steps is written as text. CSV and ZSTD Parquet as every
 * tidy table, and `tables.json`: each table's rows, columns and steps, and
 * each input file's sha256. A step whose command has a bundle (BUNDLES,
 * lib/report/bundles.ts) may list only the tidy tables its bundle declares
 * (`tidy`): a Parquet file beyond them is our defect, and fails the build
 * naming the step, the file and the bundle, rather than being stacked.
 *
 * @module
 */
import { join } from "node:path";
import { type FileContents, toJsonText } from "../../core/atomic_write.ts";
import { generatorMeta } from "../../core/meta.ts";
import { sha256Hex } from "../../core/sha256.ts";
import { csvField, type TidyColumn, type TidyKind, type TidyTable } from "../../tidy/tidy_table.ts";
import { tidyFiles } from "../../tidy/tidy_files.ts";
import { readTidyParquet } from "../../tidy/tidy_read.ts";
import { STUDY_COLUMNS, STUDY_TABLES_FORMAT } from "../../tidy/study_columns.ts";
import type { StepFacts } from "./step_facts.ts";

/** One step's table, as read. */
interface Part {
  readonly step: StepFacts;
  readonly file: string;
  readonly sha256: string;
  readonly table: TidyTable;
}

/**
 * The study-wide table of one name: the parts stacked (see the module).
 *
 * @param study The study's name.
 * @param name The table's name.
 * @param parts Each step's table of that name, in study order.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { stackTables } from "./study_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const step = (id: string) => ({ id, dir: "", files: [], result: true, gate: id, checkpoint_id: "ck", round: null });
 * const t = stackTables("s", "t", [
 *   { step: step("a"), table: { name: "t", rows: 1, columns: [{ name: "x", kind: "f64", values: [1] }] } },
 *   { step: step("b"), table: { name: "t", rows: 1, columns: [{ name: "y", kind: "str", values: ["u"] }, { name: "round", kind: "i32", values: [2] }, { name: "step", kind: "i32", values: [7] }] } },
 * ]);
 * deepEqual(t.columns.map((c) => [c.name, [...c.values as unknown[]]]), [
 *   ["study", ["s", "s"]], ["step", ["a", "b"]], ["gate", ["a", "b"]], ["checkpoint_id", ["ck", "ck"]],
 *   ["round", [null, "2"]], ["x", [1, null]], ["y", [null, "u"]], ["t_step", [null, 7]],
 * ]);
 * ```
 */
export function stackTables(
  study: string,
  name: string,
  parts: readonly { readonly step: StepFacts; readonly table: TidyTable }[],
): TidyTable {
  const rows = parts.reduce((n, p) => n + p.table.rows, 0);
  // A table's own `study` or `step` column is kept as `<table>_study`, `<table>_step`.
  const own = (c: TidyColumn) =>
    c.name === "study" || c.name === "step" ? { ...c, name: `${name}_${c.name}` } : c;
  const tables = parts.map((p) => ({ ...p.table, columns: p.table.columns.map(own) }));
  const kinds = new Map<string, TidyKind | "mixed">();
  for (const table of tables) {
    for (const c of table.columns) {
      if ((STUDY_COLUMNS as readonly string[]).includes(c.name)) continue;
      const seen = kinds.get(c.name);
      kinds.set(c.name, seen === undefined || seen === c.kind ? c.kind : "mixed");
    }
  }
  const text = (c: TidyColumn, v: unknown) =>
    v === null || c.kind === "str" ? v : csvField(c.kind, v);
  const front: TidyColumn[] = STUDY_COLUMNS.map((column) => {
    const values: unknown[] = [];
    parts.forEach(({ step }, k) => {
      const table = tables[k]!;
      const mine = table.columns.find((c) => c.name === column);
      const fixed = column === "study" ? study : column === "step" ? step.id : step[column];
      for (let r = 0; r < table.rows; r++) {
        values.push(mine ? text(mine, mine.values[r] ?? null) : fixed);
      }
    });
    return { name: column, kind: "str", values };
  });
  const rest: TidyColumn[] = [...kinds].map(([column, kind]) => {
    const values: unknown[] = [];
    for (const table of tables) {
      const mine = table.columns.find((c) => c.name === column);
      for (let r = 0; r < table.rows; r++) {
        const v = mine === undefined ? null : mine.values[r] ?? null;
        values.push(kind === "mixed" ? text(mine!, v) : v);
      }
    }
    return { name: column, kind: kind === "mixed" ? "str" : kind, values };
  });
  return { name, rows, columns: [...front, ...rest] };
}

/** A built step and the tidy tables its command's bundle declares. */
export interface TidyStep {
  /** The step's facts. */
  readonly facts: StepFacts;
  /** Its command's bundle, by stage, and that bundle's `tidy`; absent: no bundle (report, notebook). */
  readonly bundle?: { readonly stage: string; readonly tidy: readonly string[] };
}

/**
 * The tidy tables a step lists (each Parquet file at the top of its
 * output), by name, checked against its bundle's declaration.
 *
 * @param step The step and its bundle.
 * @returns The names of its tables, in the marker's order.
 * @throws Error When it lists a table its bundle does not declare.
 *
 * @example
 * ```ts
 * import { stepTidyTables } from "./study_tables.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * const facts = { id: "h", dir: "", files: ["heldout.json", "splits.parquet", "figures/a.parquet"],
 *   result: true, gate: null, checkpoint_id: null, round: null };
 * deepEqual(stepTidyTables({ facts, bundle: { stage: "heldout", tidy: ["splits"] } }), ["splits"]);
 * deepEqual(stepTidyTables({ facts }), ["splits"]);
 * throws(() => stepTidyTables({ facts, bundle: { stage: "power", tidy: ["mde"] } }),
 *   /h\/splits\.parquet: a tidy table the bundle of lib\/power does not declare \(tidy: mde\)/);
 * ```
 */
export function stepTidyTables(step: TidyStep): string[] {
  const { facts, bundle } = step;
  const names = facts.files.filter((f) => f.endsWith(".parquet") && !f.includes("/"))
    .map((f) => f.slice(0, -".parquet".length));
  const extra = bundle === undefined ? [] : names.filter((n) => !bundle.tidy.includes(n));
  if (bundle !== undefined && extra.length > 0) {
    throw new Error(
      `${facts.id}/${extra[0]}.parquet: a tidy table the bundle of lib/${bundle.stage} ` +
        `does not declare (tidy: ${bundle.tidy.join(", ") || "none"})`,
    );
  }
  return names;
}

/**
 * The files of `<out>/tables/`: each table's CSV and Parquet, and
 * `tables.json`.
 *
 * @param study The study's name.
 * @param steps The built steps, in study order, each with its command's bundle.
 * @returns File name to contents.
 * @throws Error When a step lists a tidy table its bundle does not declare.
 */
export async function studyTableFiles(
  study: string,
  steps: readonly TidyStep[],
): Promise<Record<string, FileContents>> {
  const byName = new Map<string, Part[]>();
  for (const tidyStep of steps) {
    const step = tidyStep.facts;
    for (const name of stepTidyTables(tidyStep)) {
      const file = `${name}.parquet`;
      const bytes = await Deno.readFile(join(step.dir, file));
      const table = await readTidyParquet(bytes, name);
      const list = byName.get(name) ?? [];
      list.push({ step, file: `${step.id}/${file}`, sha256: sha256Hex(bytes), table });
      byName.set(name, list);
    }
  }
  const names = [...byName.keys()].sort();
  const tables = names.map((name) => stackTables(study, name, byName.get(name)!));
  const files = await tidyFiles(tables);
  files["tables.json"] = toJsonText({
    format: STUDY_TABLES_FORMAT,
    study,
    columns: {
      study: "the study's name (study: in gatelab.yaml)",
      step: "the step whose output the row comes from (<out>/<step>/)",
      gate: "the gate the step reads (gate.json gate_id), null when it reads several or none",
      checkpoint_id:
        "the checkpoint of the step's gates (their bare runs' provenance.checkpoint_id), null when they differ or it is unrecorded",
      round: "the round gate import gave the step's one gate, null otherwise",
      own: "a table with its own column of one of these names keeps its values there",
    },
    tables: tables.map((t) => ({
      name: t.name,
      rows: t.rows,
      columns: t.columns.map((c) => ({ name: c.name, kind: c.kind })),
      steps: byName.get(t.name)!.map((p) => p.step.id),
    })),
    inputs: names.flatMap((name) =>
      byName.get(name)!.map((p) => ({ file: p.file, rows: p.table.rows, sha256: p.sha256 }))
    ),
    generator: generatorMeta("gate build (study-wide tables)"),
  });
  return files;
}
