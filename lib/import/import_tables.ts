import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { generatorMeta } from "../core/meta.ts";
import { parseJsonText } from "../load/json_text.ts";
import { DEFAULT_MAPPING, type ImportMapping, parseMapping } from "./mapping.ts";
import { type SourceTable, tableFormat } from "./table.ts";
import { readParquetTable } from "./read_parquet.ts";
import { readJsonlTable } from "./read_jsonl.ts";
import { readCsvTable } from "./read_csv.ts";
import { DEFAULT_MAX_ROWS, InputBudget } from "./limits.ts";
import { type ColumnUse, type ImportRow, tableRows } from "./rows.ts";
import { isPairedTable, unpairTable } from "./paired.ts";
import { type BuildContext, buildImport, type ImportBuild, unrecordedList } from "./build.ts";
import type { ImportDocument } from "./document.ts";

/** One input file of an import, as import.json records it. */
export interface ImportSource {
  readonly file: string;
  readonly format: string;
  readonly rows: number;
  readonly sha256: string;
}

/** What an import made: its directories and import.json (their bytes: `importFiles`). */
export interface ImportResult {
  /** The contract directories, with the bytes of their files. */
  readonly build: ImportBuild;
  /** import.json. */
  readonly document: ImportDocument;
  readonly sources: readonly ImportSource[];
  readonly rows: number;
}

/**
 * Reads a mapping file (`gatelab.import-map/v1`) strictly: invalid JSON, a
 * duplicate key or an unknown key is an issue naming the file and the key.
 */
export async function readMapping(
  file: string,
): Promise<{ ok: true; value: ImportMapping; sha256: string } | { ok: false; issues: Issue[] }> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { ok: false, issues: [{ code: "io_error", message: `cannot read: ${error}`, file }] };
  }
  const json = parseJsonText(new TextDecoder().decode(bytes));
  if (!json.ok) {
    return { ok: false, issues: [{ code: "parse_error", message: `is ${json.why}`, file }] };
  }
  const parsed = parseMapping(json.value, file);
  return parsed.ok ? { ok: true, value: parsed.value, sha256: sha256Hex(bytes) } : parsed;
}

/** Options of {@linkcode importTables}. */
export interface ImportTablesOptions {
  /** The mapping; canonical column names when absent. */
  readonly mapping?: ImportMapping;
  /** The mapping file and its sha256, for import.json. */
  readonly mappingFile?: { readonly file: string; readonly sha256: string } | null;
  /** The command line, for `generator`. */
  readonly command?: string;
  /**
   * Rows read at most over all files (and 512 bytes of input per row;
   * lib/import/limits.ts). `gate import table --max-rows`.
   * @default {1000000}
   */
  readonly maxRows?: number;
}

/**
 * `gate import table`: reads CSV, TSV (gatelab's strict RFC 4180 parser,
 * lib/import/read_csv.ts), Parquet (hyparquet) and JSON
 * Lines tables, one row per rollout attempt, and builds contract
 * directories (one bare run per checkpoint and split, one gate per masked
 * round) plus `import.json` (docs/import.md). Every problem is an issue
 * naming file, row and column; nothing is built when there is one.
 *
 * @param files The table files, in order (rows keep file order).
 * @param options Mapping, mapping file, command line.
 * @returns The directories and import.json (`importFiles`: their bytes), or the issues (with
 *   a `hint` line naming the mapping keys when canonical columns are missing).
 */
export async function importTables(
  files: readonly string[],
  options: ImportTablesOptions = {},
): Promise<
  { ok: true; value: ImportResult } | { ok: false; issues: Issue[]; hint?: string }
> {
  const mapping = options.mapping ?? DEFAULT_MAPPING;
  const issues: Issue[] = [];
  const tables: SourceTable[] = [];
  const sources: ImportSource[] = [];
  const budget = new InputBudget(options.maxRows ?? DEFAULT_MAX_ROWS);
  for (const file of files) {
    const format = tableFormat(file);
    if (format === null) {
      issues.push({
        code: "usage_error",
        message: "unknown table format; expected .csv, .tsv, .parquet or .jsonl",
        file,
      });
      continue;
    }
    let read: SourceTable | Issue | Issue[];
    if (format === "csv" || format === "tsv") {
      read = await readCsvTable(file, format, textColumns(mapping), { budget });
    } else if (format === "parquet") read = await readParquetTable(file, budget);
    else read = await readJsonlTable(file, budget);
    if (Array.isArray(read)) { for (const i of read) issues.push(i); }
    else if ("code" in read) issues.push(read);
    else {
      // A paired row unfolds into two attempts: its second counts too. The rows read so far must
      // fit in the heap once built (a Parquet file's declared rows were checked before decoding).
      const refused =
        (isPairedTable(read, mapping) ? budget.takePairedRows(file, read.rows) : null) ??
          budget.takeHeap(file, read.columns.length);
      if (refused) issues.push(refused);
      else tables.push(read);
    }
    // Past the limits: the files after it are not read.
    if (issues.at(-1)?.code === "usage_error") break;
  }
  if (issues.length > 0) return { ok: false, issues };

  const rows: ImportRow[] = [];
  const uses: ColumnUse[] = [];
  const layouts: ("attempts" | "paired")[] = [];
  const unmapped = new Set<string>();
  for (const table of tables) {
    const read = readRows(table, mapping);
    if (!read.ok) {
      for (const i of read.issues) issues.push(i);
      for (const key of read.unmapped ?? []) unmapped.add(key);
      continue;
    }
    const { r, layout } = read;
    for (const row of r.rows) rows.push(row);
    uses.push(r.use);
    layouts.push(layout);
    sources.push({
      file: table.file,
      format: table.format,
      rows: table.rows,
      sha256: table.sha256 ?? sha256Hex(await Deno.readFile(table.file)),
    });
  }
  // The tables' columns are not needed past here: let the collector have them before the build.
  tables.length = 0;
  if (issues.length > 0) {
    return unmapped.size === 0
      ? { ok: false, issues }
      : { ok: false, issues, hint: mappingHint([...unmapped], options.mapping !== undefined) };
  }
  if (rows.length === 0) {
    const file = files.join(", ");
    return {
      ok: false,
      issues: [{ code: "coverage_incomplete", message: "no rows to import", file }],
    };
  }
  const context: BuildContext = {
    components: unique(uses.flatMap((u) => u.components.map(([name]) => name))),
    maskVersions: unique(uses.flatMap((u) => u.mask.map(([v]) => v))),
  };
  const built = buildImport(rows, mapping, context);
  if (!built.ok) return built;
  const document = importDocument({
    kind: "table",
    sources,
    mappingFile: options.mappingFile ?? null,
    build: built.value,
    columns: uses.map((u, i) => ({
      file: sources[i]!.file,
      layout: layouts[i]!,
      ...useDocument(u),
    })),
    command: options.command ?? "gate import table",
  });
  return {
    ok: true,
    value: {
      build: built.value,
      document,
      sources,
      rows: sources.reduce((n, s) => n + s.rows, 0),
    },
  };
}

/**
 * A table's rows as attempts: the attempt layout read as it is, the paired
 * layout (gatelab's own `tasks` table) unfolded first, its issues and rows
 * numbered as the paired table's rows and named by its columns.
 */
function readRows(
  table: SourceTable,
  mapping: ImportMapping,
):
  | { ok: true; r: { rows: ImportRow[]; use: ColumnUse }; layout: "attempts" | "paired" }
  | { ok: false; issues: Issue[]; unmapped?: readonly string[] } {
  if (!isPairedTable(table, mapping)) {
    const r = tableRows(table, mapping);
    return r.ok ? { ok: true, r, layout: "attempts" } : r;
  }
  const unpaired = unpairTable(table, mapping);
  if (!unpaired.ok) return unpaired;
  const { rowOf, columnOf } = unpaired.value;
  const r = tableRows(unpaired.value.table, unpaired.value.mapping);
  const issues = [
    ...unpaired.value.issues,
    ...(r.ok ? [] : r.issues.map((i) =>
      i.line === undefined ? i : {
        ...i,
        line: rowOf[i.line - 1]!,
        ...(i.path === undefined ? {} : { path: columnOf(i.line, i.path) }),
      }
    )),
  ];
  if (!r.ok || issues.length > 0) {
    return {
      ok: false,
      issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
      ...(!r.ok && r.unmapped !== undefined ? { unmapped: r.unmapped } : {}),
    };
  }
  const rows = r.rows.map((row) => ({ ...row, row: rowOf[row.row - 1]! }));
  if (r.use.mask.length === 0 || r.use.injected === null) {
    return { ok: true, r: { rows, use: r.use }, layout: "paired" };
  }
  // gatelab's tasks table writes the mask twice, as 0/1 columns and as the injected list of the
  // versions whose column is 1 (FORMAT.md, "Tidy tables"): the list must agree with the columns,
  // and it is not a record of what was injected, so traces.injected stays unrecorded.
  const order = r.use.mask.map(([v]) => v);
  const mismatched: Issue[] = [];
  for (const row of rows) {
    if (row.mask === null || row.injected === null) continue;
    const planned = order.filter((v) => row.mask![v] === 1);
    const got = new Set(row.injected);
    if (got.size === planned.length && planned.every((v) => got.has(v))) continue;
    mismatched.push({
      code: "injection_mismatch",
      message: `injected ${
        JSON.stringify(row.injected)
      } is not the versions whose mask column is 1 (${
        JSON.stringify(planned)
      }): in a paired table the injected list restates the mask`,
      file: row.file,
      line: row.row,
      path: r.use.injected,
    });
  }
  if (mismatched.length > 0) return { ok: false, issues: mismatched };
  return {
    ok: true,
    r: { rows: rows.map((row) => ({ ...row, injected: null })), use: { ...r.use, injected: null } },
    layout: "paired",
  };
}

/**
 * The line that says how to name a table's own columns when canonical ones
 * are missing: the mapping keys they need, and where the mapping is described.
 */
function mappingHint(keys: readonly string[], mapped: boolean): string {
  const list = keys.length === 1 ? keys[0]! : `${keys.slice(0, -1).join(", ")} and ${keys.at(-1)}`;
  return mapped
    ? `hint: if the table names them otherwise, set ${list} in the mapping (docs/import.md, "The mapping file")`
    : `hint: a table with other column names imports through a mapping: --map <file> with ${list} set to them (docs/import.md, "The mapping file")`;
}

/** Columns read as text from CSV: ids, arm, status, round, checkpoint, error, the injected list. */
function textColumns(mapping: ImportMapping): Set<string> {
  const fields = [
    "task_id",
    "split",
    "arm",
    "round",
    "checkpoint_id",
    "status",
    "error",
    "injected",
  ] as const;
  const out = new Set<string>(fields);
  for (const f of fields) {
    const named = mapping.columns?.[f];
    if (named !== undefined) out.add(named);
  }
  return out;
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

function useDocument(u: ColumnUse) {
  return {
    fields: u.fields,
    components: Object.fromEntries(u.components),
    mask: Object.fromEntries(u.mask),
    injected: u.injected,
  };
}

/** The import.json document (docs/FORMAT.md, Extensions: import). */
export function importDocument(input: {
  readonly kind: "table" | "inspect";
  readonly sources: readonly ImportSource[];
  readonly mappingFile: { readonly file: string; readonly sha256: string } | null;
  readonly build: ImportBuild;
  readonly columns: readonly unknown[];
  readonly command: string;
}): ImportDocument {
  const { build } = input;
  const sourceSha = input.sources.length === 1
    ? input.sources[0]!.sha256
    : sha256Hex(new TextEncoder().encode(input.sources.map((s) => s.sha256).join("\n")));
  return {
    format: "gatelab.import/v1",
    kind: input.kind,
    source: input.sources.map((s) => s.file),
    source_sha256: sourceSha,
    inputs: input.sources,
    mapping: input.mappingFile,
    runs: build.runs.map((r) => ({
      dir: r.dir,
      run_id: r.id,
      checkpoint_id: r.checkpoint_id,
      split: r.split,
      rows: r.rows,
    })),
    gates: build.gates.map((g) => ({
      dir: g.dir,
      gate_id: g.id,
      round: g.round ?? null,
      checkpoint_id: g.checkpoint_id,
      split: g.split,
      bare_run_dir: g.bare_run_dir ?? "",
      rows: g.rows,
    })),
    unrecorded: unrecordedList(build.unrecorded),
    defaults: build.defaults,
    ...(build.renamed.length > 0 ? { renamed: build.renamed } : {}),
    columns: input.columns,
    conventions: {
      rows:
        "one row = one rollout attempt (layout attempts), or one paired row: its bare and masked attempt (layout paired, gatelab's tasks table); row numbers are one-based, header excluded",
      source_sha256:
        "sha256 of the one input file, or of the input files' sha256 hex lines joined by newlines",
      unrecorded:
        "a field the source does not record is written as null and listed in its file's unrecorded array; never invented",
      paths: "dir and bare_run_dir are relative to --out",
    },
    generator: generatorMeta(input.command),
  };
}
