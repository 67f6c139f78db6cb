/**
 * `deno task gate plan-power --tasks N --columns M --p-present p --resid-sd s
 * [--budget-k K] [--effects e1,e2,...] [--sims S] [--seed S]
 * [--from <analysis_out_dir>] --out <dir>`: analytic SE of beta, the MDE at
 * 80% power and, by simulation, the probability that the truly best K are
 * selected (docs/inference.md). Writes the files of `powerFiles`
 * (lib/power: power.json, power.md, power.tex, the tidy `mde` table)
 * through `finish()`; a `--from` it cannot read refuses with validation.json.
 *
 * @module
 */
import { IssueList } from "../core/issue.ts";
import { stderrProgress } from "../core/progress.ts";
import { sha256Hex } from "../core/sha256.ts";
import { planPower, type PowerDocument, type PowerPlan } from "../power/power.ts";
import { powerInputsFromContributions } from "../power/power_from.ts";
import { powerDocument } from "../power/document.ts";
import { powerFiles } from "../power/files.ts";
import { powerTables } from "../power/tables.ts";
import {
  ContributionsSchema,
  contributionsTaskRows,
  readOutput,
  SelectionSchema,
} from "../contract/outputs/mod.ts";
import { toMarkdown } from "../table/table.ts";
import { labelScope } from "./label_prefix.ts";
import { scopeTables } from "../table/run_scope.ts";
import { join } from "node:path";
import { parseCommand, UsageError } from "./args.ts";
import { PLAN_POWER } from "./commands.ts";
import type { CommandContext, Values } from "./option_decl.ts";
import { finish } from "./finish.ts";
import { inputDir, outputDir } from "./paths.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, PLAN_POWER, context);
  if (cli === null) return 0;
  const { values, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const given = givenOptions(values);
  const from = values.from !== undefined ? [{ label: "--from", path: values.from }] : [];
  for (const f of from) await inputDir(f, "an analysis output directory (contributions.json)");
  await outputDir({ label: "--out", path: out }, from);
  const past = values.from === undefined
    ? null
    : await readFrom(values.from, values.metric, given.budgetK === undefined);
  return await finish({
    out,
    command,
    quiet: values.quiet,
    inputs: past?.inputs ?? [],
    issues: past?.issues ?? [],
    result: async () => {
      const options = resolveOptions(given, past, cli.usageError);
      const doc = powerDocument({
        command,
        from: past?.source ?? null,
        inputs: past?.inputs ?? [],
        effects: options.effects ?? null,
        plan: plan(options, values.quiet),
      });
      return {
        files: await powerFiles(doc, { scope }),
        details: [toMarkdown(scopeTables(powerTables(doc), scope)[0]!)],
        summary: [`ok: wrote ${out}/power.json`],
      };
    },
  });
}

/** The design and simulation options as given on the command line (any may be absent). */
interface PowerOptions {
  readonly tasks: number | undefined;
  readonly columns: number | undefined;
  readonly pPresent: number | undefined;
  readonly residSd: number | undefined;
  readonly budgetK: number | undefined;
  readonly effects: readonly number[] | undefined;
  readonly sims: number;
  readonly seed: number;
}

/** The design and simulation options as given, `--effects` read as numbers (a bad entry is a usage error). */
function givenOptions(values: Values<typeof PLAN_POWER>): PowerOptions {
  const effects = values.effects?.split(",").map((e, i) => {
    const v = Number(e.trim());
    if (e.trim() === "" || !Number.isFinite(v)) {
      throw new UsageError(`--effects entry ${i + 1} "${e}" is not a number`);
    }
    return v;
  });
  return {
    tasks: values.tasks,
    columns: values.columns,
    pPresent: values["p-present"],
    residSd: values["resid-sd"],
    budgetK: values["budget-k"],
    effects,
    sims: values.sims,
    seed: values.seed,
  };
}

/** What `--from` gave: the design it read, K from selection.json, the inputs and any issues. */
interface PastAnalysis {
  readonly issues: IssueList;
  readonly inputs: { path: string; sha256: string }[];
  readonly source: PowerDocument["from"];
  readonly read: Partial<Omit<PowerOptions, "sims" | "seed">>;
}

/**
 * Reads a past analysis: the design and estimates from its contributions.json
 * and, when `--budget-k` is not given, K from its selection.json (none: the
 * default K). Problems are issues (the command refuses).
 */
async function readFrom(
  dir: string,
  metric: string | undefined,
  wantBudget: boolean,
): Promise<PastAnalysis> {
  const issues = new IssueList();
  const inputs: { path: string; sha256: string }[] = [];
  let source: PowerDocument["from"] = null;
  let read: PastAnalysis["read"] = {};
  const file = join(dir, "contributions.json");
  const contributions = await readOutput(file, ContributionsSchema);
  if (!contributions.ok) issues.addAll(contributions.issues);
  else if (contributions.output === null) {
    issues.add({ code: "io_error", file, message: "cannot read the past analysis (no such file)" });
  } else {
    inputs.push({ path: file, sha256: sha256Hex(contributions.output.bytes) });
    // The per-task rows: contributions.json's own (an older gatelab) or its tasks table's.
    const doc = contributions.output.value;
    const rows = await contributionsTaskRows(doc, dir);
    if (rows.ok && doc.tasks_table !== undefined) {
      inputs.push({ path: join(dir, doc.tasks_table.file), sha256: doc.tasks_table.sha256 });
    }
    const parsed = rows.ok
      ? powerInputsFromContributions({ ...doc, tasks: rows.rows }, {
        file,
        ...(metric ? { metric } : {}),
      })
      : { ok: false as const, issues: [rows.issue] };
    if (!parsed.ok) issues.addAll(parsed.issues);
    else {
      const v = parsed.value;
      read = {
        tasks: v.tasks,
        columns: v.columns,
        pPresent: v.pPresent,
        residSd: v.residSd,
        effects: v.estimates,
      };
      source = { path: dir, how: v.how, version_ids: v.versionIds, metric: v.metric };
    }
  }
  if (wantBudget) {
    const selection = await readOutput(join(dir, "selection.json"), SelectionSchema);
    if (!selection.ok) issues.addAll(selection.issues);
    else if (selection.output !== null) {
      read = { ...read, budgetK: selection.output.value.budget_k };
    }
  }
  return { issues, inputs, source, read };
}

/** The options given, else `--from`'s; a missing design option is a usage error. */
function resolveOptions(
  given: PowerOptions,
  past: PastAnalysis | null,
  usageError: (message: string) => UsageError,
): PowerOptions {
  const r = past?.read ?? {};
  const o: PowerOptions = {
    tasks: given.tasks ?? r.tasks,
    columns: given.columns ?? r.columns,
    pPresent: given.pPresent ?? r.pPresent,
    residSd: given.residSd ?? r.residSd,
    budgetK: given.budgetK ?? r.budgetK,
    effects: given.effects ?? r.effects,
    sims: given.sims,
    seed: given.seed,
  };
  const missing = [
    ["tasks", o.tasks],
    ["columns", o.columns],
    ["p-present", o.pPresent],
    ["resid-sd", o.residSd],
  ].filter(([, v]) => v === undefined).map(([k]) => `--${k}`);
  if (missing.length > 0) {
    throw usageError(`plan-power needs ${missing.join(", ")} (or --from)`);
  }
  if (o.effects !== undefined && o.effects.length !== o.columns) {
    throw new UsageError(`--effects has ${o.effects.length} values for ${o.columns} columns`);
  }
  return o;
}

/** Plans the power (lib/power); a design it cannot plan is a usage error. */
function plan(o: PowerOptions, quiet: boolean | undefined): PowerPlan {
  try {
    return planPower(
      { tasks: o.tasks!, columns: o.columns!, pPresent: o.pPresent!, residSd: o.residSd! },
      {
        sims: o.sims,
        seed: o.seed,
        ...(o.budgetK === undefined ? {} : { budgetK: o.budgetK }),
        ...(o.effects === undefined ? {} : { effects: o.effects }),
        ...(quiet ? {} : { onProgress: stderrProgress("simulating") }),
      },
    );
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}
