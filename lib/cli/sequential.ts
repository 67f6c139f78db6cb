/**
 * `deno task gate sequential <gate_dir>... --out <dir>`: anytime-valid
 * re-analysis of a paired-delta gate over prefixes of its rows
 * (docs/FORMAT.md, Extensions: sequential).
 *
 * Exit codes: 0 ok, 2 input issues (only validation.json is written), 1 crash.
 *
 * @module
 */
import { choiceOption, intOption, numberOption, parseCommand, UsageError } from "./args.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { validationDocument } from "../core/validation_document.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/report.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import type { SequentialOrder } from "../sequential/order.ts";
import type { SequentialDocument } from "../sequential/sequential.ts";
import { sequentialOfGate } from "../sequential/sequential_gate.ts";
import { sequentialFiles } from "../sequential/files.ts";
import { finish } from "./finish.ts";
import { suggestGateDir } from "./paths.ts";
import { printError } from "../core/terminal_text.ts";

const ORDERS: readonly SequentialOrder[] = ["run", "task", "random"];

const HELP = `usage: deno task gate sequential <gate_dir>... --out <dir> [options]

Validates the gate (rounds sharing one bare run are pooled), orders its
paired rows, and fits the no-intercept OLS on every prefix n = M + 2 .. N.
For every metric and version: estimate, classical SE, the anytime-valid
confidence sequence and e-value (Lindon et al.; Gaussian, homoskedastic
errors given the design), their running intersection and maximum, when
the sign is certified and when the point selection settles, and the
rollouts a stop there would have saved. Writes sequential.json,
sequential.md/.tex and the figures sequential_funnel_<metric> and
sequential_selection_<metric>.

  --out <dir>        output directory (required)
  --order <o>        run (masked completion order in traces.jsonl; default),
                     task (split, task_id, sample_id) or random
  --seed <S>         seed of --order random (default 1)
  --alpha <a>        error level of the confidence sequences (default ${DEFAULTS.alpha})
  --phi <p>          mixture precision (default 1)
  --every <b>        report every b-th prefix, always N (default 1)
  --no-png           skip PNG copies of the figures
${LABEL_PREFIX_HELP}
  --quiet            print only the summary`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "sequential",
    help: HELP,
    options: {
      out: { type: "string" },
      order: { type: "string" },
      seed: { type: "string" },
      alpha: { type: "string" },
      phi: { type: "string" },
      every: { type: "string" },
      "no-png": { type: "boolean" },
      quiet: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, what: "gate directory" },
    required: { out: "<dir>" },
  });
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
          png: values["no-png"] !== true,
          onMissingConverter: (line) => printError(line),
        }),
        details: signLines(document),
        summary: [summaryLine(document, options.order, out)],
      };
    },
  });
}

/** --order, --seed, --alpha, --phi and --every, checked. */
function sequentialOptions(values: {
  order?: string | undefined;
  seed?: string | undefined;
  alpha?: string | undefined;
  phi?: string | undefined;
  every?: string | undefined;
}) {
  const order = choiceOption("order", values.order, ORDERS, "run");
  const seed = intOption("seed", values.seed, 1, { min: 0 });
  const alpha = numberOption("alpha", values.alpha, DEFAULTS.alpha, { min: 0, max: 1 });
  if (alpha === 0 || alpha === 1) {
    throw new UsageError(`--alpha must be in (0, 1), got "${values.alpha}"`);
  }
  const phi = numberOption("phi", values.phi, 1, { min: 0 });
  if (phi === 0) throw new UsageError(`--phi must be positive, got "${values.phi}"`);
  const every = intOption("every", values.every, 1, { min: 1 });
  return { order, seed, alpha, phi, every };
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
function summaryLine(document: SequentialDocument, order: SequentialOrder, out: string): string {
  const metric = Object.keys(document.metrics)[0]!;
  const first = document.metrics[metric]!;
  return `ok: ${document.rows} rows in ${order} order, ${first.n.length} prefixes; ${metric} ` +
    `selection stable from n = ${first.selection_stable_from ?? "never"}; wrote ${out}/`;
}
