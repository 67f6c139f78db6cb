/**
 * `deno task gate heldout <gate_dir>... --plan <plan.json> --out <dir>
 * [--against <later_gate_dir>]...`: held-out ranking checks over tasks, and
 * optionally the selection against a later gate (docs/inference.md).
 *
 * Validation runs first (gates, later gates and the plan); any issue exits
 * 2 with `validation.json` only. Otherwise writes the files of
 * `heldoutFiles` (lib/heldout: `heldout.json`, `heldout.md`,
 * `heldout.tex`, the tidy `splits` table and `validation.json`) in one
 * atomic step through `finish()`.
 *
 * @module
 */
import { IssueList } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/document.ts";
import { validationDocument } from "../core/validation_document.ts";
import { finish } from "./finish.ts";
import { printWarnings, unverifiableLine } from "./unverifiable.ts";
import { type HeldoutDocument, type HeldoutPlan, parseHeldoutPlan } from "../heldout/heldout.ts";
import { heldoutDocument } from "../heldout/document.ts";
import { heldoutFiles } from "../heldout/files.ts";
import { heldoutTables } from "../heldout/tables.ts";
import { toMarkdown } from "../table/table.ts";
import { labelScope } from "./label_prefix.ts";
import { scopeTables } from "../table/run_scope.ts";
import { parseCommand } from "./args.ts";
import { HELDOUT } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { type CacheOption, cacheOption, gateDir, inputFile, outputDir } from "./paths.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, HELDOUT, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out, planFile = values.plan, against = values.against;
  const scope = labelScope(out, values["label-prefix"]);
  const cache = await checkPaths(positionals, against, planFile, out, values.cache);

  const issues = new IssueList();
  const plan = await readPlan(planFile, issues);
  const validation = await validateGates(positionals, cache.options);
  issues.addReport(validation);
  const later = against.length > 0 ? await validateGates(against, cache.options) : null;
  if (later) issues.addReport(later);
  const unverifiable = printWarnings([...(validation.warnings ?? []), ...(later?.warnings ?? [])]);
  const inputs = [...validation.inputs, ...(later?.inputs ?? [])];
  const dataset = validation.dataset;
  if (plan.value) {
    checkMetric(issues, planFile, plan.value, dataset, "this gate");
    checkMetric(issues, planFile, plan.value, later?.dataset, "the later gate");
  }
  const refused = !issues.ok || !dataset || !plan.value || (later && !later.dataset);
  return await finish({
    out,
    command,
    quiet: values.quiet,
    refusal: refused ? validationDocument(issues, command, inputs) : null,
    result: async () => {
      const doc = heldoutDocument({
        command,
        dataset: dataset!,
        plan: plan.value!,
        planFile: { path: planFile, bytes: plan.bytes! },
        inputs,
        later: later?.dataset ?? null,
      });
      const report = validationReport({ ...validation, inputs }, command);
      return {
        files: await heldoutFiles(doc, { scope, validation: report }),
        details: [toMarkdown(scopeTables(heldoutTables(doc), scope)[0]!)],
        summary: [
          ...(unverifiable.length > 0 ? [unverifiableLine(unverifiable, out)] : []),
          summaryLine(doc, out),
        ],
      };
    },
  });
}

/** Checks the gate, later gate, plan, output and cache paths (a mistake is a usage error). */
async function checkPaths(
  positionals: readonly string[],
  against: readonly string[],
  planFile: string,
  out: string,
  cacheDir: string | undefined,
): Promise<CacheOption> {
  const cache = cacheOption(cacheDir);
  const gates = [
    ...positionals.map((path) => ({ label: "gate directory", path })),
    ...against.map((path) => ({ label: "--against", path })),
  ];
  for (const g of gates) await gateDir(g);
  const planPath = { label: "--plan", path: planFile };
  await inputFile(planPath, "a heldout plan file (JSON)");
  await outputDir({ label: "--out", path: out }, [...gates, planPath, ...cache.inputs]);
  await cache.check();
  return cache;
}

/** Reads and parses the plan file; an unreadable or invalid plan adds its issues. */
async function readPlan(
  file: string,
  issues: IssueList,
): Promise<{ bytes: Uint8Array | null; value: HeldoutPlan | null }> {
  let bytes: Uint8Array | null = null;
  let value: unknown = undefined;
  try {
    bytes = await Deno.readFile(file);
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      issues.add({
        code: "plan_invalid",
        file,
        message: `the plan is not valid JSON (${(error as Error).message})`,
      });
    }
  } catch (error) {
    issues.add({
      code: "io_error",
      file,
      message: `cannot read the plan (${(error as Error).message})`,
    });
  }
  const parsed = value === undefined ? null : parseHeldoutPlan(value, file);
  if (parsed && !parsed.ok) issues.addAll(parsed.issues);
  return { bytes, value: parsed?.ok ? parsed.value : null };
}

/** A `plan_invalid` issue when the plan's metric is not a metric of the (later) gate. */
function checkMetric(
  issues: IssueList,
  file: string,
  plan: HeldoutPlan,
  dataset: PairedDataset | null | undefined,
  which: string,
): void {
  if (!dataset || dataset.metrics.includes(plan.metric)) return;
  issues.add({
    code: "plan_invalid",
    file,
    path: "metric",
    message: `metric "${plan.metric}" is not a metric of ${which} (${dataset.metrics.join(", ")})`,
  });
}

/** The `ok: ...` line: splits, rank agreement, overlap, gains, the later gate. */
function summaryLine(doc: HeldoutDocument, out: string): string {
  const s = doc.summary, across = doc.against;
  return `ok: ${doc.splits.length} split(s) over ${doc.n_tasks} tasks; Spearman mean ${
    s.spearman?.mean?.toFixed(3)
  }, top-K overlap mean ${s.topk_overlap?.mean?.toFixed(2)}, gain predicted ${
    s.gain_predicted?.mean?.toFixed(4)
  } vs realised ${s.gain_realised?.mean?.toFixed(4)}${
    across
      ? `; against later gate: Spearman ${
        across.spearman_shared?.toFixed(3)
      } on ${across.shared.length} shared`
      : ""
  }; wrote ${out}/heldout.json`;
}
