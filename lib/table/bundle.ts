/**
 * A stage's bundle as a type: the output document it writes, how it is
 * read back from an output directory, and the tables, figures, files and
 * report section made from it (docs/architecture.md, "The bundle rule").
 * Each stage's `mod.ts` exports one `Bundle` object (`heldoutBundle`, ...);
 * `BUNDLES` (lib/report/bundles.ts) lists them in the report's order, and
 * `gate report`'s reader, its section order and tests/architecture_test.ts
 * iterate it. On the render floor so that every stage may import it.
 *
 * @module
 */
import { join } from "node:path";
import type { z } from "npm:zod@4.6.7";
import type { FileValue } from "../core/atomic_write.ts";
import type { Issue } from "../core/issue.ts";
import { checkOutput } from "../contract/outputs/read_output.ts";
import type { Figure } from "./figure.ts";
import type { ReportSection, SectionKind } from "./section.ts";
import type { Table } from "./table.ts";

/** A zod schema of an output file (lib/contract/outputs), as a bundle names it. */
export interface OutputSchema {
  /** Checks a parsed JSON value against the schema. */
  safeParse(value: unknown): { readonly success: boolean };
}

/** One file a bundle read from an output directory. */
export interface BundleFile {
  /** Its name in the directory ("heldout.json"). */
  readonly name: string;
  /** Its bytes (the report records their sha256). */
  readonly bytes: Uint8Array;
  /** Its JSON value as written (the report records its generator, seed and draws). */
  readonly raw: unknown;
}

/** What {@linkcode Bundle.read} found in a directory. */
export interface BundleRead<Doc> {
  /** The document, or null when the directory holds none of the bundle's files (or they failed). */
  readonly doc: Doc | null;
  /** Every file read, in reading order (also those that failed their schema). */
  readonly files: readonly BundleFile[];
  /** `io_error`, `parse_error`, `output_schema_mismatch` and the like; empty when all read. */
  readonly issues: readonly Issue[];
}

/**
 * A stage's bundle: its output document and what is made of it.
 *
 * @typeParam Doc The document as read back (the schema's output; for
 *   analyze the pair of contributions.json and selection.json).
 * @typeParam Context What `files` needs besides the document: the options of
 *   the stage's files function, and for the stages whose files are made from
 *   the computation rather than the document (analyze, reward,
 *   ledger-audit, import) that computation.
 */
export interface Bundle<Doc, Context = never> {
  /** The stage's folder under lib/ ("heldout"). */
  readonly stage: string;
  /** The JSON document's file name in an output directory ("heldout.json"). */
  readonly file: string;
  /** The zod schema of that file (lib/contract/outputs). */
  readonly schema: OutputSchema;
  /** The kinds of report section it makes, in paper order (empty: the report shows none). */
  readonly kind: readonly SectionKind[];
  /**
   * The `gate` commands that write it, as typed after `gate` (`["compare"]`
   * for gateb, `["import table", "import inspect"]` for import): how `gate
   * build` finds a step's bundle from the step's command.
   */
  readonly commands: readonly string[];
  /**
   * The tidy tables its command writes (each as `<name>.csv` and
   * `<name>.parquet` at the top of `--out`, docs/FORMAT.md "Tidy tables"),
   * by name, in the order `gate sql` loads them (`["splits"]`; analyze's
   * `["coefficients", "tasks", "selection", "draws"]`, where `draws` needs
   * `--save-draws` and `tasks` is not written beside `--sums`); empty: it
   * writes none. `gate sql`'s tables of an analysis output and the checks
   * of the study-wide tables read it; tests/architecture_test.ts holds it to
   * what the command writes.
   */
  readonly tidy: readonly string[];
  /** Reads its document from an output directory: null when absent, issues when broken. */
  read(dir: string): Promise<BundleRead<Doc>>;
  /** The tables of the document. */
  tables(doc: Doc): Table[];
  /** Its figures, where it has any. */
  figures?(doc: Doc): Figure[];
  /** The bytes of every file the command writes into `--out`: pure. */
  files(
    doc: Doc,
    context: Context,
  ): Record<string, FileValue> | Promise<Record<string, FileValue>>;
  /** Its section of the HTML report (absent: the report does not show this output). */
  section?(doc: Doc, dir: string): ReportSection | null;
}

/** A bundle of any document, as a list of bundles holds it. */
// deno-lint-ignore no-explicit-any
export type AnyBundle = Bundle<any, any>;

async function readOptional(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Reads one JSON output file of a bundle and checks it against its schema
 * (the fields a reader needs are checked; unknown fields are accepted).
 *
 * @param dir The output directory.
 * @param name The file's name in it.
 * @param schema Its schema.
 * @param accepts When given, a file that does not parse or that `accepts`
 *   refuses is not this bundle's: it is skipped without an issue (an
 *   audit's validation.json among every command's).
 * @returns The document (null when absent), the file read, and issues:
 *   `io_error`, `parse_error`, `output_schema_mismatch` (with file and path).
 *
 * @example
 * ```ts
 * import { readBundleFile } from "./bundle.ts";
 * import { SelectionSchema } from "../contract/outputs/selection.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/selection.json`, '{"format": "gatelab.selection/v1", "metric": 1}');
 * const r = await readBundleFile(dir, "selection.json", SelectionSchema);
 * deepEqual([r.doc, r.files.map((f) => f.name), r.issues[0]?.path], [null, ["selection.json"], "metric"]);
 * deepEqual(await readBundleFile(dir, "none.json", SelectionSchema), { doc: null, files: [], issues: [] });
 * const skipped = await readBundleFile(dir, "selection.json", SelectionSchema, () => false);
 * deepEqual(skipped, { doc: null, files: [], issues: [] });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readBundleFile<S extends z.ZodType>(
  dir: string,
  name: string,
  schema: S,
  accepts?: (value: unknown) => boolean,
): Promise<BundleRead<z.output<S>>> {
  const file = join(dir, name);
  let bytes: Uint8Array | null;
  try {
    bytes = await readOptional(file);
  } catch (error) {
    return {
      doc: null,
      files: [],
      issues: [{
        code: "io_error",
        message: `Cannot read file: ${(error as Error).message}`,
        file,
      }],
    };
  }
  if (bytes === null) return { doc: null, files: [], issues: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    if (accepts) return { doc: null, files: [], issues: [] };
    return {
      doc: null,
      files: [],
      issues: [{
        code: "parse_error",
        message: `Cannot parse JSON: ${(error as Error).message}`,
        file,
      }],
    };
  }
  if (accepts && !accepts(raw)) return { doc: null, files: [], issues: [] };
  const files = [{ name, bytes, raw }];
  const parsed = checkOutput(schema, raw, file);
  return parsed.ok
    ? { doc: parsed.value, files, issues: [] }
    : { doc: null, files, issues: parsed.issues };
}
