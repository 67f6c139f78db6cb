/**
 * `deno task gate heldout <gate_dir>... --plan <plan.json> --out <dir>
 * [--against <later_gate_dir>]...`: held-out ranking checks over tasks, and
 * optionally the selection against a later gate (docs/inference.md).
 *
 * Validation runs first (gates, later gates and the plan); any issue exits
 * 2 with `validation.json` only. Otherwise writes `heldout.json`,
 * `heldout.md`, `heldout.tex` and `validation.json` in one atomic step.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { HeldoutSchema } from "../contract/outputs/mod.ts";
import { formatIssue, IssueList } from "../core/issue.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { heldoutTidy } from "../infer/heldout/heldout_tidy.ts";
import { generatorMeta } from "../core/meta.ts";
import { sha256Hex } from "../core/sha256.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/report.ts";
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { unverifiableLine } from "./analyze.ts";
import { againstLaterGate, heldoutCheck, parseHeldoutPlan } from "../infer/heldout/heldout.ts";
import { acrossGateTable, heldoutSummaryTable } from "../infer/heldout/tables.ts";
import { toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { parseCommand } from "./args.ts";
import { cacheOption, gateDir, inputFile, outputDir } from "./paths.ts";

const HELP =
  `usage: deno task gate heldout <gate_dir>... --plan <plan.json> --out <dir> [--against <later_gate_dir>]...

Held-out ranking checks: split tasks (not rows), fit on one part, measure on
the other (Spearman, Kendall tau-b, top-K overlap, predicted vs realised gain
of the selected set). Several gate dirs are pooled rounds over one bare run.

  --plan <file>      {"format": "gatelab.heldout-plan/v1", "scheme": "kfold" | "split_half",
                      "folds": 5, "repeats": 20, "seed": 1, "metric": "reward", "budget_k": 10}
  --against <dir>    a later gate sharing versions (repeat for pooled rounds)
  --out <dir>        where heldout.json, heldout.md, heldout.tex, validation.json go
  --cache <dir>      read runs through the run cache in <dir> (written on a miss);
                     validation.json and heldout.json record hit/miss per run (default: off)
${LABEL_PREFIX_HELP}
  --quiet            print only the summary line`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "heldout",
    help: HELP,
    options: {
      plan: { type: "string" },
      out: { type: "string" },
      against: { type: "string", multiple: true },
      cache: { type: "string" },
      quiet: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, what: "gate directory" },
    required: { out: "<dir>", plan: "<plan.json>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const planFile = values.plan;
  const against = values.against ?? [];
  const gates = [
    ...positionals.map((path) => ({ label: "gate directory", path })),
    ...against.map((path) => ({ label: "--against", path })),
  ];
  for (const g of gates) await gateDir(g);
  const planPath = { label: "--plan", path: planFile };
  await inputFile(planPath, "a heldout plan file (JSON)");
  const cache = cacheOption(values.cache);
  await outputDir({ label: "--out", path: out }, [...gates, planPath, ...cache.inputs]);
  await cache.check();

  const issues = new IssueList();
  let planBytes: Uint8Array | null = null;
  let planValue: unknown = undefined;
  try {
    planBytes = await Deno.readFile(planFile);
    try {
      planValue = JSON.parse(new TextDecoder().decode(planBytes));
    } catch (error) {
      issues.add({
        code: "plan_invalid",
        file: planFile,
        message: `the plan is not valid JSON (${(error as Error).message})`,
      });
    }
  } catch (error) {
    issues.add({
      code: "io_error",
      file: planFile,
      message: `cannot read the plan (${(error as Error).message})`,
    });
  }
  const parsed = planValue === undefined ? null : parseHeldoutPlan(planValue, planFile);
  if (parsed && !parsed.ok) issues.addAll(parsed.issues);

  const validation = await validateGates(positionals, cache.options);
  issues.addReport(validation);
  const later = against.length > 0 ? await validateGates(against, cache.options) : null;
  if (later) issues.addReport(later);
  // Unrecorded fields (an import) are one line before the summary, as in analyze; other warnings
  // one per line.
  const warnings = [...(validation.warnings ?? []), ...(later?.warnings ?? [])];
  const unverifiable = warnings.filter((w) => w.code === "provenance_unrecorded");
  for (const w of warnings) {
    if (w.code !== "provenance_unrecorded") console.error(formatIssue(w));
  }
  const inputs = [
    ...validation.inputs,
    ...(later?.inputs ?? []),
  ];
  const dataset = validation.dataset;
  if (dataset && parsed?.ok && !dataset.metrics.includes(parsed.value.metric)) {
    issues.add({
      code: "plan_invalid",
      file: planFile,
      path: "metric",
      message: `metric "${parsed.value.metric}" is not a metric of this gate (${
        dataset.metrics.join(", ")
      })`,
    });
  }
  if (later?.dataset && parsed?.ok && !later.dataset.metrics.includes(parsed.value.metric)) {
    issues.add({
      code: "plan_invalid",
      file: planFile,
      path: "metric",
      message: `metric "${parsed.value.metric}" is not a metric of the later gate (${
        later.dataset.metrics.join(", ")
      })`,
    });
  }
  if (!issues.ok || !dataset || !parsed?.ok || (later && !later.dataset)) {
    return await refuse(out, validationDocument(issues, command, inputs), values);
  }

  const plan = parsed.value;
  const result = heldoutCheck(dataset, plan);
  const across = later?.dataset
    ? againstLaterGate(dataset, later.dataset, { metric: plan.metric, budgetK: result.budget_k })
    : null;
  const doc = {
    format: "gatelab.heldout/v1",
    generator: generatorMeta(command),
    estimator: {
      name: "paired_delta_ols_no_intercept",
      formula: "R_i - B_i = C_i' beta + e_i",
      intercept: 0.0,
    },
    baseline: dataset.baseline,
    gates: dataset.gates.map((g) => ({
      gate_id: g.gate_id,
      gate_dir: g.gate_dir,
      masked: g.masked,
    })),
    plan_file: { path: planFile, sha256: sha256Hex(planBytes!) },
    inputs,
    n_rows: dataset.n,
    n_tasks: dataset.clusterCount,
    ...result,
    against: across
      ? {
        gates: later!.dataset!.gates.map((g) => ({
          gate_id: g.gate_id,
          gate_dir: g.gate_dir,
          masked: g.masked,
        })),
        baseline: later!.dataset!.baseline,
        ...across,
      }
      : null,
  } satisfies z.input<typeof HeldoutSchema>;

  const tables = scopeTables(
    [heldoutSummaryTable(result), ...(across ? [acrossGateTable(across)] : [])],
    scope,
  );
  await writeFilesAtomic(out, {
    "validation.json": toJsonText(validationReport({ ...validation, inputs }, command)),
    "heldout.json": toJsonText(doc),
    "heldout.md": tables.map(toMarkdown).join("\n"),
    "heldout.tex": tables.map(toLatex).join("\n"),
    ...await tidyFiles([heldoutTidy(doc.splits)]),
  });
  if (!values.quiet) console.log(toMarkdown(tables[0]!));
  if (unverifiable.length > 0) console.log(unverifiableLine(unverifiable, out));
  const s = result.summary;
  console.log(
    `ok: ${result.splits.length} split(s) over ${dataset.clusterCount} tasks; Spearman mean ${
      s.spearman.mean?.toFixed(3)
    }, top-K overlap mean ${s.topk_overlap.mean?.toFixed(2)}, gain predicted ${
      s.gain_predicted.mean?.toFixed(4)
    } vs realised ${s.gain_realised.mean?.toFixed(4)}${
      across
        ? `; against later gate: Spearman ${
          across.spearman_shared?.toFixed(3)
        } on ${across.shared.length} shared`
        : ""
    }; wrote ${out}/heldout.json`,
  );
  return 0;
}
