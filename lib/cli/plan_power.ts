/**
 * `deno task gate plan-power --tasks N --columns M --p-present p --resid-sd s
 * [--budget-k K] [--effects e1,e2,...] [--sims S] [--seed S]
 * [--from <analysis_out_dir>] --out <dir>`: analytic SE of beta, the MDE at
 * 80% power and, by simulation, the probability that the truly best K are
 * selected (docs/inference.md). Writes power.json, power.md, power.tex.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { IssueList } from "../core/issue.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { powerTidy } from "../infer/power/power_tidy.ts";
import { generatorMeta } from "../core/meta.ts";
import { stderrProgress } from "../core/progress.ts";
import { sha256Hex } from "../core/sha256.ts";
import { planPower } from "../infer/power/power.ts";
import { powerInputsFromContributions } from "../infer/power/power_from.ts";
import {
  ContributionsSchema,
  type PowerSchema,
  readOutput,
  SelectionSchema,
} from "../contract/outputs/mod.ts";
import { powerTables } from "../infer/power/tables.ts";
import { toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { join } from "node:path";
import { intOption, numberOption, parseCommand, seedOption, UsageError } from "./args.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { inputDir, outputDir } from "./paths.ts";

const HELP =
  `usage: deno task gate plan-power --tasks N --columns M --p-present p --resid-sd s --out <dir>
       [--budget-k K] [--effects e1,e2,...] [--sims S] [--seed S] [--from <analysis_out_dir>]

Standard error of beta for a random 0/1 design, the minimum detectable
effect at 80% power (two-sided alpha 0.05), and by simulation the
probability that the truly best K versions are selected.

  --from <dir>     take N, M, p, the residual SD and (unless --effects) the
                   effects from a past gate's contributions.json (and K from
                   its selection.json); explicit options override
  --effects list   true effects, one per column (default: zero, or --from's estimates)
  --budget-k K     active skill budget (default: --from's, else min(${DEFAULTS.powerBudgetCap}, M))
  --sims S         simulated gates (default ${DEFAULTS.powerSims})
  --seed S         simulation seed (default ${DEFAULTS.seed})
  --metric m       metric read with --from (default ${DEFAULTS.metric})
  --out <dir>      where power.json, power.md, power.tex go (not the --from directory)
${LABEL_PREFIX_HELP}
  --quiet          print only the summary line`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "plan-power",
    help: HELP,
    options: {
      tasks: { type: "string" },
      columns: { type: "string" },
      "p-present": { type: "string" },
      "resid-sd": { type: "string" },
      "budget-k": { type: "string" },
      effects: { type: "string" },
      sims: { type: "string" },
      seed: { type: "string" },
      metric: { type: "string" },
      from: { type: "string" },
      out: { type: "string" },
      ...LABEL_PREFIX_OPTION,
    },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  let tasks = intOption("tasks", values.tasks, undefined);
  let columns = intOption("columns", values.columns, undefined);
  let pPresent = numberOption("p-present", values["p-present"], undefined);
  let residSd = numberOption("resid-sd", values["resid-sd"], undefined);
  let budgetK = intOption("budget-k", values["budget-k"], undefined);
  let effects: readonly number[] | undefined = values.effects?.split(",").map((e, i) => {
    const v = Number(e.trim());
    if (e.trim() === "" || !Number.isFinite(v)) {
      throw new UsageError(`--effects entry ${i + 1} "${e}" is not a number`);
    }
    return v;
  });
  const sims = intOption("sims", values.sims, DEFAULTS.powerSims);
  const seed = seedOption(values.seed);
  const inputs: { path: string; sha256: string }[] = [];
  const from = values.from !== undefined ? [{ label: "--from", path: values.from }] : [];
  for (const f of from) await inputDir(f, "an analysis output directory (contributions.json)");
  await outputDir({ label: "--out", path: out }, from);
  let source: z.input<typeof PowerSchema>["from"] = null;

  if (values.from !== undefined) {
    const issues = new IssueList();
    const file = join(values.from, "contributions.json");
    const read = await readOutput(file, ContributionsSchema);
    if (!read.ok) issues.addAll(read.issues);
    else if (read.output === null) {
      issues.add({
        code: "io_error",
        file,
        message: "cannot read the past analysis (no such file)",
      });
    } else {
      inputs.push({ path: file, sha256: sha256Hex(read.output.bytes) });
      const parsed = powerInputsFromContributions(read.output.value, {
        file,
        ...(values.metric ? { metric: values.metric } : {}),
      });
      if (!parsed.ok) issues.addAll(parsed.issues);
      else {
        const v = parsed.value;
        tasks ??= v.tasks;
        columns ??= v.columns;
        pPresent ??= v.pPresent;
        residSd ??= v.residSd;
        effects ??= v.estimates;
        source = { path: values.from, how: v.how, version_ids: v.versionIds, metric: v.metric };
      }
    }
    if (budgetK === undefined) {
      // No selection.json: the default K applies.
      const selection = await readOutput(join(values.from, "selection.json"), SelectionSchema);
      if (!selection.ok) issues.addAll(selection.issues);
      else if (selection.output !== null) budgetK = selection.output.value.budget_k;
    }
    if (!issues.ok) return await refuse(out, validationDocument(issues, command, inputs), values);
  }
  const missing = [
    ["tasks", tasks],
    ["columns", columns],
    ["p-present", pPresent],
    ["resid-sd", residSd],
  ].filter(([, v]) => v === undefined).map(([k]) => `--${k}`);
  if (missing.length > 0) {
    throw new UsageError(
      `plan-power needs ${missing.join(", ")} (or --from); see deno task gate plan-power --help`,
    );
  }
  if (effects !== undefined && effects.length !== columns) {
    throw new UsageError(`--effects has ${effects.length} values for ${columns} columns`);
  }
  let plan;
  try {
    plan = planPower(
      { tasks: tasks!, columns: columns!, pPresent: pPresent!, residSd: residSd! },
      {
        sims,
        seed,
        ...(budgetK === undefined ? {} : { budgetK }),
        ...(effects === undefined ? {} : { effects }),
        ...(values.quiet ? {} : { onProgress: stderrProgress("simulating") }),
      },
    );
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  const doc = {
    format: "gatelab.power/v1",
    generator: generatorMeta(command),
    estimator: {
      name: "paired_delta_ols_no_intercept",
      formula: "R_i - B_i = C_i' beta + e_i",
      intercept: 0.0,
    },
    from: source,
    inputs,
    effects: effects ?? null,
    ...plan,
  } satisfies z.input<typeof PowerSchema>;

  const tables = scopeTables(powerTables(plan), scope);
  await writeFilesAtomic(out, {
    "power.json": toJsonText(doc),
    "power.md": tables.map(toMarkdown).join("\n"),
    "power.tex": tables.map(toLatex).join("\n"),
    ...await tidyFiles([powerTidy(plan)]),
  });
  if (!values.quiet) console.log(toMarkdown(tables[0]!));
  console.log(`ok: wrote ${out}/power.json`);
  return 0;
}
