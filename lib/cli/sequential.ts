/**
 * `deno task gate sequential <gate_dir>... --out <dir>`: anytime-valid
 * re-analysis of a paired-delta gate over prefixes of its rows
 * (docs/FORMAT.md, Extensions: sequential).
 *
 * Exit codes: 0 ok, 2 input issues (only validation.json is written), 1 crash.
 *
 * @module
 */
import { printError } from "../core/terminal_text.ts";
import { parseCommand } from "./args.ts";
import { SEQUENTIAL } from "./commands.ts";
import type { CommandContext, Values } from "./option_decl.ts";
import { validationDocument } from "../core/validation_document.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/document.ts";
import { labelScope } from "./label_prefix.ts";
import type { SequentialDocument, SequentialOptions } from "../sequential/sequential.ts";
import { sequentialOfGate } from "../sequential/sequential_gate.ts";
import { sequentialFiles } from "../sequential/files.ts";
import { finish } from "./finish.ts";
import { suggestGateDir } from "./paths.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, SEQUENTIAL, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const options = sequentialOptions(values);
  for (const path of positionals) await suggestGateDir({ label: "gate directory", path });
  const validation = await validateGates(positionals);
  const { dataset, inputs } = validation;
  return await finish({
    out,
    command,
    inputs,
    quiet: values.quiet,
    // Its own report: counts include the issues past the per-code cap.
    refusal: validation.ok && dataset !== null
      ? null
      : { ...validationReport(validation, command), ok: false },
    result: async () => {
      const document = await sequentialOfGate(dataset!, { ...options, command });
      return {
        files: await sequentialFiles(document, {
          validation: validationDocument([], command, inputs),
          scope,
          png: !values["no-png"],
          onMissingConverter: (line) => printError(line),
        }),
        details: signLines(document),
        summary: [summaryLine(document, out)],
      };
    },
  });
}

/** --order (when given), --seed, --alpha, --phi and --every as the library takes them. */
function sequentialOptions(values: Values<typeof SEQUENTIAL>): SequentialOptions {
  const { order, seed, alpha, phi, every } = values;
  return { ...(order === undefined ? {} : { order }), seed, alpha, phi, every };
}

/** One line per version of the first metric: when its sign was certified. */
function signLines(document: SequentialDocument): string[] {
  const first = document.metrics[Object.keys(document.metrics)[0]!]!;
  return Object.entries(first.versions).map(([id, v]) =>
    `  ${id.padEnd(36)} sign ${
      v.sign_certified_at === null
        ? "not certified"
        : `${v.sign === 1 ? "+" : "-"} at n = ${v.sign_certified_at} (saves ${v.rollouts_saved})`
    }`
  );
}

/** The `ok:` line: rows, order, prefixes and when the first metric's selection settled. */
function summaryLine(document: SequentialDocument, out: string): string {
  const metric = Object.keys(document.metrics)[0]!;
  const first = document.metrics[metric]!;
  return `ok: ${document.rows} rows in ${document.order} order, ${first.n.length} prefixes; ${metric} ` +
    `selection stable from n = ${first.selection_stable_from ?? "never"}; wrote ${out}/`;
}
