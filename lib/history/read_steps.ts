/**
 * Reads the steps of a history from disk: analysis output directories as
 * they are, gate directories analysed now (rounds that share one bare run
 * pooled into one step, as `gate analyze` pools them).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { z } from "npm:zod@4.6.7";
import {
  type ContributionsJson,
  ContributionsSchema,
  readOutput,
  type SelectionJson,
  SelectionSchema,
} from "../contract/outputs/mod.ts";
import { GatelabError, type Issue, IssueList } from "../core/issue.ts";
import { normalQuantile } from "../math/normal.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { resolveBareDir } from "../load/bare_dir.ts";
import { runAnalysis } from "../analyze/analyze.ts";
import type { SelectionStatus } from "../select/select.ts";
import type { HistoryStep, IntervalKind, StepVersion } from "./step.ts";

/** Options of {@linkcode readHistorySteps}. */
export interface ReadHistoryStepsOptions {
  /** Bootstrap draws for gates analysed now (0: HC3 or CR1 intervals). @default {0} */
  readonly draws?: number;
  /** Bootstrap seed for gates analysed now. @default {DEFAULTS.seed} */
  readonly seed?: number;
  /** Run cache directory for gates analysed now. */
  readonly cacheDir?: string;
  /** Command line recorded by analyses made now. @default {"history"} */
  readonly command?: string;
}

/** What was read: the steps (when every input could be used), issues, and the inputs. */
export interface ReadHistorySteps {
  readonly steps: HistoryStep[];
  /** The issues, at most 50 listed per code with a summary of the rest (as validation lists them). */
  readonly issues: Issue[];
  /** Issues per code, including those past the cap. */
  readonly counts: Record<string, number>;
  readonly inputs: { readonly dir: string; readonly kind: "analysis" | "gate" }[];
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readJson(path: string, issues: Issue[]): Promise<Json | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    issues.push({
      code: "io_error",
      message: `cannot read: ${error instanceof Error ? error.message : error}`,
      file: path,
    });
    return null;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    issues.push({
      code: "parse_error",
      message: `not valid JSON: ${error instanceof Error ? error.message : error}`,
      file: path,
    });
    return null;
  }
}

async function readJsonQuiet(path: string): Promise<Json | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return null;
  }
}

/**
 * Reads one file of an analysis directory with its schema; a missing file
 * is an `io_error`, a mismatch `output_schema_mismatch`.
 */
async function readAnalysisFile<S extends z.ZodType>(
  path: string,
  schema: S,
  issues: Issue[],
): Promise<z.output<S> | null> {
  const read = await readOutput(path, schema);
  if (!read.ok) {
    issues.push(...read.issues);
    return null;
  }
  if (read.output === null) {
    issues.push({ code: "io_error", message: "cannot read: no such file", file: path });
    return null;
  }
  return read.output.value;
}

/** What a history step reads of contributions.json (a file, or lib/analyze's output). */
type StepContributions = Pick<
  ContributionsJson,
  "gates" | "baseline" | "metrics" | "columns" | "bootstrap"
>;
/** What a history step reads of selection.json. */
type StepSelection = Pick<
  SelectionJson,
  "metric" | "decisions" | "stage" | "budget_k" | "selected"
>;

const Z975 = normalQuantile(0.975);

/**
 * Converts one analysis (contributions.json and selection.json contents)
 * into a {@linkcode HistoryStep}. Intervals: the bootstrap percentile
 * interval (`ci`, with `se_bootstrap`) when the analysis ran the
 * bootstrap; otherwise estimate -/+ z_0.975 times the CR1 task-clustered
 * error for pooled rounds (rows share tasks, so HC3 would understate the
 * error) and the HC3 error for a single gate.
 */
async function toStep(
  step: number,
  contributions: StepContributions,
  selection: StepSelection,
  source: HistoryStep["source"],
): Promise<HistoryStep> {
  const metric = selection.metric;
  const gates = contributions.gates;
  const gateDirs = gates.map((g) => g.gate_dir);
  const texts = new Map<string, string>();
  for (const dir of gateDirs) {
    const plan = await readJsonQuiet(join(dir, "gate.json"));
    for (const slot of plan?.slots ?? []) {
      for (const v of slot?.versions ?? []) {
        if (typeof v?.text_sha256 === "string") texts.set(v.version_id, v.text_sha256);
      }
    }
  }
  const manifest = await readJsonQuiet(join(contributions.baseline.run_dir, "manifest.json"));
  const checkpoint = manifest?.provenance?.checkpoint_id;
  const coefficients = contributions.metrics[metric]?.coefficients ?? {};
  const pooled = gates.length > 1;
  const decisions = new Map(selection.decisions.map((d) => [d.version_id, d]));
  const versions = contributions.columns.map((c): StepVersion => {
    const coef = coefficients[c.version_id];
    const d = decisions.get(c.version_id);
    const estimate = coef?.estimate as number;
    let se: number | null, lo: number | null, hi: number | null, interval: IntervalKind;
    if (coef?.ci && typeof coef.se_bootstrap === "number") {
      interval = "bootstrap";
      se = coef.se_bootstrap;
      [lo, hi] = coef.ci;
    } else {
      interval = pooled ? "cr1_normal" : "hc3_normal";
      se = (pooled ? coef?.se_cluster : coef?.se_hc3) ?? null;
      lo = se === null ? null : estimate - Z975 * se;
      hi = se === null ? null : estimate + Z975 * se;
    }
    return {
      version_id: c.version_id,
      slot_id: c.slot_id,
      chunk_id: c.chunk_id,
      role: c.role,
      text_sha256: texts.get(c.version_id) ?? null,
      estimate,
      se,
      ci_lower: lo ?? null,
      ci_upper: hi ?? null,
      interval,
      status: d?.status as SelectionStatus,
      rank: d?.rank ?? null,
      retired: d?.retired === true,
    };
  });
  const boot = contributions.bootstrap;
  return {
    step,
    gate_ids: gates.map((g) => String(g.gate_id)),
    gate_dirs: gateDirs,
    plan_files: gateDirs.map((d) => join(d, "gate.json")),
    checkpoint_id: typeof checkpoint === "string" ? checkpoint : null,
    stage: selection.stage,
    metric,
    budget_k: selection.budget_k,
    baseline_sha256: contributions.baseline.sha256,
    source,
    bootstrap: boot ? { draws: boot.draws, seed: boot.seed } : null,
    selected: [...selection.selected],
    versions,
  };
}

/**
 * Reads the steps of a history. Each input is an analysis output directory
 * (with contributions.json and selection.json) or a gate directory
 * (gate.json); consecutive gate directories whose bare run is the same
 * directory form one step and are validated and analysed now (strict
 * pairing; with `draws` > 0 also the task bootstrap). An exploratory
 * analysis (waived pairing codes, or an overridden budget) cannot be a
 * step: its selection was never made.
 *
 * @param dirs Analysis or gate directories in training order.
 * @param options Bootstrap draws and seed, run cache, command.
 * @returns The steps, any issues (validation issues of gates analysed now,
 *   unreadable or exploratory analyses), and the inputs.
 *
 * @example
 * ```ts
 * import { readHistorySteps } from "./read_steps.ts";
 * import { deepEqual } from "node:assert/strict";
 * const read = await readHistorySteps(["/nonexistent-dir"]);
 * deepEqual(read.issues.map((i) => i.code), ["io_error"]);
 * ```
 */
export async function readHistorySteps(
  dirs: readonly string[],
  options: ReadHistoryStepsOptions = {},
): Promise<ReadHistorySteps> {
  const issues: Issue[] = [];
  // Validations' own results: their issues are capped per code, their counts are not.
  const validations: { readonly issues: readonly Issue[]; counts: Record<string, number> }[] = [];
  const inputs: ReadHistorySteps["inputs"][number][] = [];
  type Group = { kind: "analysis"; dir: string } | { kind: "gates"; dirs: string[]; bare: string };
  const groups: Group[] = [];
  for (const dir of dirs) {
    if (
      await exists(join(dir, "selection.json")) || await exists(join(dir, "contributions.json"))
    ) {
      groups.push({ kind: "analysis", dir });
      inputs.push({ dir, kind: "analysis" });
    } else if (await exists(join(dir, "gate.json"))) {
      inputs.push({ dir, kind: "gate" });
      const plan = await readJson(join(dir, "gate.json"), issues);
      const bare = resolve(resolveBareDir(dir, String(plan?.bare_run_dir ?? "")));
      const last = groups[groups.length - 1];
      if (last?.kind === "gates" && last.bare === bare) last.dirs.push(dir);
      else groups.push({ kind: "gates", dirs: [dir], bare });
    } else {
      issues.push({
        code: "io_error",
        message:
          "neither an analysis directory (contributions.json, selection.json) nor a gate directory (gate.json)",
        file: dir,
      });
    }
  }
  const steps: HistoryStep[] = [];
  for (const group of groups) {
    const n = steps.length + 1;
    if (group.kind === "analysis") {
      const contributions = await readAnalysisFile(
        join(group.dir, "contributions.json"),
        ContributionsSchema,
        issues,
      );
      if (contributions === null) continue;
      const exploratory = (file: string) =>
        issues.push({
          code: "usage_error",
          message:
            "this analysis is exploratory (waived pairing checks or an overridden budget); a history step needs the selection the gate made",
          file: join(group.dir, file),
        });
      // An exploratory analysis with waived codes writes no selection.json at all.
      if (contributions.exploratory === true) {
        exploratory("contributions.json");
        continue;
      }
      // A pooled-checkpoints analysis (gate analyze --pool-checkpoints) spans several checkpoints.
      if (contributions.checkpoints !== undefined) {
        issues.push({
          code: "usage_error",
          message: `this analysis pools ${contributions.checkpoints.checkpoints.length} ` +
            `checkpoints (--pool-checkpoints); a history step is one checkpoint: give each ` +
            `checkpoint's own analysis or gate directories`,
          file: join(group.dir, "contributions.json"),
        });
        continue;
      }
      const selection = await readAnalysisFile(
        join(group.dir, "selection.json"),
        SelectionSchema,
        issues,
      );
      if (selection === null) continue;
      if (selection.exploratory === true) {
        exploratory("selection.json");
        continue;
      }
      steps.push(
        await toStep(n, contributions, selection, { kind: "analysis", dirs: [group.dir] }),
      );
      continue;
    }
    const validation = await validateGates(group.dirs, {
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    });
    if (!validation.ok || validation.dataset === null) {
      validations.push(validation);
      continue;
    }
    try {
      const analysis = await runAnalysis(validation.dataset, {
        draws: options.draws ?? 0,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        command: options.command ?? "history",
      });
      steps.push(
        await toStep(n, analysis.contributions, analysis.selection, {
          kind: "gates",
          dirs: group.dirs,
        }),
      );
    } catch (error) {
      if (error instanceof GatelabError) issues.push(...error.issues);
      else throw error;
    }
  }
  const list = new IssueList();
  list.addAll(issues);
  for (const v of validations) list.addReport(v);
  return { steps, issues: list.toArray(), counts: list.counts(), inputs };
}
