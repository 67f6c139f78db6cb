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
import { GatelabError } from "../core/issue.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { sequentialTidy } from "../sequential/sequential_tidy.ts";
import { validationDocument } from "../core/validation_document.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/report.ts";
import { figureFiles } from "../figures/figure_files.ts";
import { toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { maskedLines } from "../sequential/masked_lines.ts";
import { rowOrder, type SequentialOrder } from "../sequential/order.ts";
import { sequentialAnalysis } from "../sequential/sequential.ts";
import { sequentialTables } from "../sequential/tables.ts";
import { funnelFigure, selectionFigure } from "../sequential/figures.ts";
import { refuse } from "./refuse.ts";
import { suggestGateDir } from "./paths.ts";

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
  const order = choiceOption("order", values.order, ORDERS, "run");
  const seed = intOption("seed", values.seed, 1, { min: 0 });
  const alpha = numberOption("alpha", values.alpha, DEFAULTS.alpha, { min: 0, max: 1 });
  if (alpha === 0 || alpha === 1) {
    throw new UsageError(`--alpha must be in (0, 1), got "${values.alpha}"`);
  }
  const phi = numberOption("phi", values.phi, 1, { min: 0 });
  if (phi === 0) throw new UsageError(`--phi must be positive, got "${values.phi}"`);
  const every = intOption("every", values.every, 1, { min: 1 });
  const quiet = { quiet: values.quiet };

  for (const path of positionals) await suggestGateDir({ label: "gate directory", path });
  const validation = await validateGates(positionals);
  const inputs = validation.inputs;
  if (!validation.ok || validation.dataset === null) {
    // Its own report: counts include the issues past the per-code cap.
    return await refuse(out, { ...validationReport(validation, command), ok: false }, quiet);
  }
  const dataset = validation.dataset;
  if (dataset.n < dataset.k + 2) {
    return await refuse(
      out,
      validationDocument(
        [{
          code: "not_identifiable",
          message:
            `${dataset.n} paired rows leave fewer than 2 residual degrees of freedom for ${dataset.k} columns`,
        }],
        command,
        inputs,
      ),
      quiet,
    );
  }
  let document;
  try {
    const rows = rowOrder(dataset, order, {
      seed,
      ...(order === "run" ? { maskedLines: await maskedLines(dataset) } : {}),
    });
    document = sequentialAnalysis(dataset, rows, { order, seed, alpha, phi, every, command });
  } catch (error) {
    if (error instanceof GatelabError) {
      return await refuse(out, validationDocument(error.issues, command, inputs), quiet);
    }
    throw error;
  }
  const tables = scopeTables(sequentialTables(document), scope);
  const metricNames = Object.keys(document.metrics);
  const figures = await figureFiles(
    metricNames.flatMap((m) => [funnelFigure(document, m), selectionFigure(document, m)]),
    { png: values["no-png"] !== true, scope, onMissingConverter: (line) => console.error(line) },
  );
  await writeFilesAtomic(out, {
    "validation.json": toJsonText(validationDocument([], command, inputs)),
    "sequential.json": toJsonText(document),
    "sequential.md": tables.map(toMarkdown).join("\n"),
    "sequential.tex": tables.map(toLatex).join("\n"),
    ...figures,
    ...await tidyFiles([sequentialTidy(document)]),
  });
  if (!values.quiet) {
    const reward = document.metrics[metricNames[0]!]!;
    for (const [id, v] of Object.entries(reward.versions)) {
      console.log(
        `  ${id.padEnd(36)} sign ${
          v.sign_certified_at === null
            ? "not certified"
            : `${
              v.sign === 1 ? "+" : "-"
            } at n = ${v.sign_certified_at} (saves ${v.rollouts_saved})`
        }`,
      );
    }
  }
  const first = document.metrics[metricNames[0]!]!;
  console.log(
    `ok: ${document.rows} rows in ${order} order, ${first.n.length} prefixes; ${
      metricNames[0]
    } selection stable from n = ${first.selection_stable_from ?? "never"}; wrote ${out}/`,
  );
  return 0;
}
