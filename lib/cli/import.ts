/**
 * `gate import table <file>... [--map <mapping.json>] [--max-rows <n>] --out <dir>` and
 * `gate import inspect --bare <log> --masked <log>... [--map
 * <mapping.json>] --out <dir>`: bring rollouts recorded elsewhere into
 * contract directories (docs/import.md). `--out` is one unit, replaced
 * whole; on any input problem nothing is written, one line per issue
 * (file, row, column) is printed and the exit code is 2.
 *
 * @module
 */
import { parseCommand } from "./args.ts";
import { IMPORT_INSPECT, IMPORT_TABLE } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputFile, outputDir } from "./paths.ts";
import { formatIssue, type Issue } from "../core/issue.ts";
import { printError } from "../core/terminal_text.ts";
import { finish } from "./finish.ts";
import { refuseUnwritten } from "./refuse.ts";
import { type ImportResult, importTables, readMapping } from "../import/import_tables.ts";
import { importFiles } from "../import/files.ts";
import { distinctInputs } from "./distinct_inputs.ts";
import { ImportRefused, verifyImport } from "../import/verify.ts";
import { SEEDS_NOT_COMPARED } from "../validate/validate_gates.ts";
import type { ImportMapping } from "../import/mapping.ts";

async function mappingOption(
  path: string | undefined,
): Promise<
  | { ok: true; mapping?: ImportMapping; file: { file: string; sha256: string } | null }
  | { ok: false; issues: Issue[] }
> {
  if (path === undefined) return { ok: true, file: null };
  await inputFile({ label: "--map", path }, "a mapping file (JSON, gatelab.import-map/v1)");
  const m = await readMapping(path);
  if (!m.ok) return m;
  return { ok: true, mapping: m.value, file: { file: path, sha256: m.sha256 } };
}

/** `gate import table`: runs the command; returns the exit code. */
export async function runTable(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, IMPORT_TABLE, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const inputs = positionals.map((path) => ({ label: "table file", path }));
  for (const i of inputs) await inputFile(i, "a table file (.csv, .tsv, .parquet, .jsonl)");
  await distinctInputs(inputs);
  const mapping = await mappingOption(values.map);
  if (!mapping.ok) return refuseUnwritten(mapping.issues, "imported");
  await outputDir({ label: "--out", path: values.out }, [
    ...inputs,
    ...(values.map ? [{ label: "--map", path: values.map }] : []),
  ]);
  const result = await importTables(positionals, {
    ...(mapping.mapping ? { mapping: mapping.mapping } : {}),
    mappingFile: mapping.file,
    command,
    maxRows: values["max-rows"],
  });
  if (!result.ok) {
    return refuseUnwritten(result.issues, "imported", {
      ...(result.hint !== undefined ? { hint: result.hint } : {}),
    });
  }
  return await write(values.out, result.value, values.quiet, command);
}

/**
 * Writes the import's files through the shared end of every command, once
 * `gate validate`'s validator accepted the gates in the new directory
 * (lib/import/verify.ts; refused: one line per issue, exit 2, nothing
 * written); prints its gates and summary.
 */
async function write(
  out: string,
  value: ImportResult,
  quiet: boolean,
  command: string,
): Promise<number> {
  const { build } = value;
  const unrecorded = build.unrecorded.size;
  // Job seeds without send_seed: validation counts their differences as warnings, said after.
  const seeds = build.seedsRecorded && build.unrecorded.has("provenance.send_seed")
    ? `${SEEDS_NOT_COMPARED}; `
    : "";
  const warnings: Issue[] = [];
  try {
    const code = await finish({
      out,
      command,
      quiet,
      result: () => ({
        files: released(importFiles(value)),
        write: { verify: (staged) => verifyImport(staged, build, out, (w) => warnings.push(w)) },
        details: [
          ...build.renamed.map((r) =>
            `  renamed  ${r.field} ${
              r.value === null ? "(unrecorded)" : JSON.stringify(r.value)
            }: ${out}/${r.dir} (another value also makes ${r.name})`
          ),
          ...build.gates.map((g) => `  gate  ${out}/${g.dir}`),
        ],
        summary: [
          `ok: imported ${value.rows} rows from ${value.sources.length} file(s): ${build.runs.length} bare run(s), ${build.gates.length} gate(s); ${unrecorded} field(s) not recorded (listed in ${out}/import.json); ${seeds}wrote ${out}/`,
        ],
      }),
    });
    for (const w of warnings) printError(formatIssue(w));
    return code;
  } catch (error) {
    if (error instanceof ImportRefused) {
      return refuseUnwritten(error.issues, "imported", { counts: error.counts });
    }
    throw error;
  }
}

/**
 * The files with each one in pieces handed to the writer once: a piece is
 * let go as it is written, so the text of a large import is not held while
 * its gates are validated.
 */
function released(
  files: Record<string, string | readonly string[]>,
): Record<string, string | Iterable<string>> {
  const out: Record<string, string | Iterable<string>> = {};
  for (const [name, value] of Object.entries(files)) {
    out[name] = typeof value === "string" ? value : letGo(value as string[]);
  }
  return out;
}

function* letGo(pieces: string[]): Generator<string> {
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    pieces[i] = "";
    yield piece;
  }
}

/** `gate import inspect`: runs the command; returns the exit code. */
export async function runInspect(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, IMPORT_INSPECT, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  // `--masked a.eval b.eval`: the logs after --masked are masked logs too.
  const masked = [...values.masked, ...positionals];
  if (masked.length === 0) {
    throw cli.usageError("import inspect needs --masked <log> (one or more)");
  }
  const inputs = [
    { label: "--bare", path: values.bare },
    ...masked.map((path) => ({ label: "--masked", path })),
  ];
  const maxEntryBytes = byteCount(values["max-entry-bytes"], cli.usageError);
  for (const i of inputs) await inputFile(i, "an inspect_ai log (.eval or .json)");
  await distinctInputs(inputs);
  const mapping = await mappingOption(values.map);
  if (!mapping.ok) return refuseUnwritten(mapping.issues, "imported");
  await outputDir({ label: "--out", path: values.out }, [
    ...inputs,
    ...(values.map ? [{ label: "--map", path: values.map }] : []),
  ]);
  const { importInspectLogs } = await import("../import/inspect.ts");
  const result = await importInspectLogs(values.bare, masked, {
    ...(mapping.mapping ? { mapping: mapping.mapping } : {}),
    mappingFile: mapping.file,
    command,
    ...(maxEntryBytes !== undefined ? { maxEntryBytes } : {}),
  });
  if (!result.ok) return refuseUnwritten(result.issues, "imported");
  return await write(values.out, result.value, values.quiet, command);
}

const UNITS: Record<string, number> = { "": 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** `--max-entry-bytes`: a whole number of bytes, or of KiB, MiB, GiB. */
function byteCount(
  text: string | undefined,
  usageError: (message: string) => Error,
): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(KiB|MiB|GiB)?$/.exec(text.trim());
  const n = m === null ? NaN : Number(m[1]) * UNITS[m[2] ?? ""]!;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw usageError(
      `--max-entry-bytes ${text} is not a size; expected a whole number of bytes >= 1, or one with KiB, MiB or GiB (e.g. 1GiB)`,
    );
  }
  return n;
}
