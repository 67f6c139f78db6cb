/**
 * `deno task gate import table <file>... [--map <mapping.json>] [--max-rows <n>] --out <dir>`
 * and `deno task gate import inspect --bare <log> --masked <log>... [--map
 * <mapping.json>] --out <dir>`: bring rollouts recorded elsewhere into
 * contract directories (docs/import.md). `--out` is one unit, replaced
 * whole; on any input problem nothing is written, one line per issue
 * (file, row, column) is printed and the exit code is 2.
 *
 * @module
 */
import { intOption, parseCommand, UsageError } from "./args.ts";
import { nearestName } from "../core/nearest_name.ts";
import { inputFile, outputDir } from "./paths.ts";
import { formatIssue, type Issue, IssueList } from "../core/issue.ts";
import { finish } from "./finish.ts";
import { type ImportResult, importTables, readMapping } from "../import/import_tables.ts";
import { importFiles } from "../import/files.ts";
import { ImportRefused, verifyImport } from "../import/verify.ts";
import { SEEDS_NOT_COMPARED } from "../validate/validate_gates.ts";
import type { ImportMapping } from "../import/mapping.ts";
import { DEFAULT_MAX_ROWS } from "../import/limits.ts";

const HELP =
  `usage: deno task gate import table <file>... [--map <mapping.json>] [--max-rows <n>] --out <dir>
       deno task gate import inspect --bare <log> --masked <log>... [--map <mapping.json>] --out <dir>

Writes contract directories (one bare run per checkpoint and split, one gate
per masked round) and import.json into <dir> (docs/import.md).

  table     CSV, TSV, Parquet or JSON Lines files, one row per rollout attempt
            (an arm column), or gatelab's own tasks table (gate analyze's
            tasks.csv/tasks.parquet: one row per paired row)
  inspect   inspect_ai logs (.eval or .json): one bare log, one or more masked logs

  --map <file>  mapping (gatelab.import-map/v1): column names, arm values,
                versions, budget_k, stage, primary metric, constant provenance
  --max-rows <n>  table: rows read at most over all files, and 512 bytes of
                input per row (default 1000000; docs/import.md, "Limits")
  --out <dir>   output directory (replaced whole)`;

const SUBCOMMANDS = ["table", "inspect"];

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    console.log(HELP);
    return sub === undefined ? 2 : 0;
  }
  if (!SUBCOMMANDS.includes(sub)) {
    const near = nearestName(sub, SUBCOMMANDS);
    throw new UsageError(
      `import: unknown kind "${sub}"${
        near ? `; did you mean ${near}?` : ""
      } (table or inspect); see deno task gate import --help`,
    );
  }
  return sub === "table" ? await runTable(rest) : await runInspect(rest);
}

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

/**
 * Prints the issues (at most 50 per code, then a count) and the hint, and
 * returns exit code 2. `counts` (per code, past a cap too) when the issues
 * were capped already.
 */
function refuse(
  issues: readonly Issue[],
  hint?: string,
  counts?: Readonly<Record<string, number>>,
): number {
  const list = new IssueList();
  if (counts === undefined) list.addAll(issues);
  else list.addReport({ issues, counts });
  for (const issue of list.toArray()) console.error(formatIssue(issue));
  if (hint !== undefined) console.error(hint);
  console.error(`not imported: ${list.count} issue(s); nothing written`);
  return 2;
}

async function runTable(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "import table",
    help: HELP,
    helpCommand: "deno task gate import",
    options: {
      map: { type: "string" },
      "max-rows": { type: "string" },
      out: { type: "string" },
      quiet: { type: "boolean" },
    },
    positionals: { min: 1, what: "table file" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const maxRows = intOption("max-rows", values["max-rows"], DEFAULT_MAX_ROWS, {
    min: 1,
    max: 1e12,
  });
  const inputs = positionals.map((path) => ({ label: "table file", path }));
  for (const i of inputs) await inputFile(i, "a table file (.csv, .tsv, .parquet, .jsonl)");
  const mapping = await mappingOption(values.map);
  if (!mapping.ok) return refuse(mapping.issues);
  await outputDir({ label: "--out", path: values.out }, [
    ...inputs,
    ...(values.map ? [{ label: "--map", path: values.map }] : []),
  ]);
  const result = await importTables(positionals, {
    ...(mapping.mapping ? { mapping: mapping.mapping } : {}),
    mappingFile: mapping.file,
    command,
    maxRows,
  });
  if (!result.ok) return refuse(result.issues, result.hint);
  return await write(values.out, result.value, values.quiet === true, command);
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
    for (const w of warnings) console.error(formatIssue(w));
    return code;
  } catch (error) {
    if (error instanceof ImportRefused) return refuse(error.issues, undefined, error.counts);
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

async function runInspect(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "import inspect",
    help: HELP,
    helpCommand: "deno task gate import",
    options: {
      bare: { type: "string" },
      masked: { type: "string", multiple: true },
      map: { type: "string" },
      out: { type: "string" },
      quiet: { type: "boolean" },
    },
    // `--masked a.eval b.eval`: the logs after --masked are masked logs too.
    positionals: { min: 0, what: "masked log" },
    required: { out: "<dir>", bare: "<log>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const masked = [...(values.masked ?? []), ...positionals];
  if (masked.length === 0) {
    throw new UsageError(
      "import inspect needs --masked <log> (one or more); see deno task gate import --help",
    );
  }
  const inputs = [
    { label: "--bare", path: values.bare },
    ...masked.map((path) => ({ label: "--masked", path })),
  ];
  for (const i of inputs) await inputFile(i, "an inspect_ai log (.eval or .json)");
  const mapping = await mappingOption(values.map);
  if (!mapping.ok) return refuse(mapping.issues);
  await outputDir({ label: "--out", path: values.out }, [
    ...inputs,
    ...(values.map ? [{ label: "--map", path: values.map }] : []),
  ]);
  const { importInspectLogs } = await import("../import/inspect.ts");
  const result = await importInspectLogs(values.bare, masked, {
    ...(mapping.mapping ? { mapping: mapping.mapping } : {}),
    mappingFile: mapping.file,
    command,
  });
  if (!result.ok) return refuse(result.issues);
  return await write(values.out, result.value, values.quiet === true, command);
}
