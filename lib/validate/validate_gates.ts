import { join } from "node:path";
import { Timings } from "../core/timings.ts";
import { releaseMemory } from "../core/release_memory.ts";
import { type Issue, type IssueCode, IssueList } from "../core/issue.ts";
import {
  type Attempt,
  type DesignColumn,
  episodeLabel,
  type PairedDataset,
} from "../core/types.ts";
import type { ProgressCallback } from "../core/progress.ts";
import type { RunManifest } from "../contract/manifest.ts";
import type { Attempts } from "./run_checks.ts";
import {
  type GateRead,
  readValidationInputs,
  type ValidationInput,
  type ValidationRead,
} from "./read_inputs.ts";
import { bareRunChecks } from "./bare_checks.ts";
import { gatePlanChecks } from "./plan_checks.ts";
import { pairingChecks } from "./pairing_checks.ts";
import { assignmentChecks } from "./assignment_checks.ts";
import { episodeChecks, type PairedRow, type UncomparedSeeds } from "./episode_checks.ts";
import { designChecks } from "./design_checks.ts";
import { buildPairedDataset, type PairedDatasetInput } from "./paired_dataset.ts";
import { EpisodeMap, type ReadonlyEpisodeMap } from "./episode_map.ts";
import { unrecordedWarnings } from "./unrecorded_checks.ts";
import { expandImportDirs } from "../load/import_dirs.ts";
import { canonicalJson } from "./provenance.ts";
import { Plans } from "./plan.ts";

/** Result of {@linkcode validateGates}. */
export interface GateValidation {
  /** True when there is no issue (waived codes aside). */
  readonly ok: boolean;
  /** Every issue found (capped per code, with a summary issue per capped code). */
  readonly issues: readonly Issue[];
  /** Number of issues per code, including those past the cap. */
  readonly counts: Record<string, number>;
  /** The paired data, built only when there is no issue. */
  readonly dataset: PairedDataset | null;
  /** Issues of the waived codes (`options.waive`); present only when codes were waived. */
  readonly waived?: readonly Issue[];
  /** Every input file set read, with hashes and cache status. */
  readonly inputs: readonly ValidationInput[];
  /**
   * Warnings that do not fail the validation: `cache_corrupt` when a run
   * cache entry failed its checksum and the run was parsed again, and one
   * `provenance_unrecorded` per field an input does not record (a check
   * that could not be made; docs/FORMAT.md, Extensions), and one
   * `seed_mismatch` per gate whose job seeds are recorded in both runs but
   * not compared (`provenance.send_seed` unrecorded) and differ, with the
   * count.
   */
  readonly warnings?: readonly Issue[];
}

/** Options of {@linkcode validateGates}. */
export interface ValidateGatesOptions {
  /**
   * Issues kept per code before summarising.
   * @default {50}
   */
  readonly capPerCode?: number;
  /**
   * Maximum number of design columns of a cold-start gate (`dimension_cap`).
   * @default {16}
   */
  readonly dimensionCap?: number;
  /** Progress over the files read (one unit per run or gate plan). */
  readonly onProgress?: ProgressCallback;
  /** Progress over the bytes of each run's traces.jsonl and each gate's assignments.jsonl (see `readValidationInputs`). */
  readonly onRead?: (file: string) => ProgressCallback | undefined;
  /**
   * Progress of the checks and the dataset once the files are read: one
   * unit per line or row a phase goes through (each bare run's attempts;
   * per gate its masked attempts, its assignment lines and its planned
   * episodes; the design's rows; the dataset's rows), reported as each
   * phase ends (the dataset's rows also as they are paired, every
   * `PAIR_PROGRESS_ROWS`).
   */
  readonly onValidate?: ProgressCallback;
  /** Times the stages `parse` (reading the inputs), `validate` (the checks) and `pair` (the dataset). */
  readonly timings?: Timings;
  /**
   * Run cache directory: bare and masked runs are read through
   * `cachedLoadRunParts` (entries `<cacheDir>/runs/<key>.run`, written on
   * a miss). Unset: every run is parsed and nothing is written.
   * @default {undefined}
   */
  readonly cacheDir?: string;
  /**
   * Codes to waive (exploratory analysis only; the CLI allows
   * `provenance_mismatch` and `seed_mismatch`): issues with these codes go
   * to `waived` instead of `issues` and do not stop the dataset.
   * @default {[]}
   */
  readonly waive?: readonly IssueCode[];
  /**
   * Pool gates of different bare runs (checkpoints): each gate is paired
   * with its own bare run, and the bare runs must share the reward
   * definition. Unset, such gates are refused with one `usage_error`. A
   * waived code never changes which bare run a gate is paired with.
   * @default {false}
   */
  readonly poolCheckpoints?: boolean;
  /**
   * Whether large masked runs are read in a worker beside the rest (see
   * `ReadValidationInputsOptions.readWorker`): the result is the same.
   */
  readonly readWorker?: boolean | URL;
}

/**
 * Validates one gate directory, or several that share one bare run (pooled
 * rounds of masks), or, with `poolCheckpoints`, several of different bare
 * runs (each gate paired with its own), against the data contract and the strict pairing
 * rules (docs/FORMAT.md sections 1, 2 and 5; docs/validation.md). Runs
 * every check and collects all issues; builds the
 * {@linkcode PairedDataset} only when there is none.
 *
 * Rows of the dataset are (gate, episode) in gate order, then planned
 * episode order (manifest tasks x sample ids); columns are the union of
 * versions in first-seen gate.json order; clusters are tasks
 * `(split, task_id)` in first-seen row order; metrics are `reward` then
 * the manifest's reward components in order.
 *
 * The dataset does not depend on `cacheDir`: a cache hit gives the same
 * runs as parsing; only `inputs[].cache` says where each run came from.
 *
 * @param givenDirs Gate directories (each with gate.json, assignments.jsonl, manifest.json,
 *   traces.jsonl); a `gate import` output directory stands for the gates its import.json lists.
 * @param options Cap per code, dimension cap, progress, run cache directory.
 * @returns Issues, counts, inputs with hashes and cache status, and the dataset when clean.
 *
 * @example
 * ```ts
 * import { validateGates } from "./validate_gates.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = await validateGates(["/nonexistent-gate"]);
 * deepEqual([v.ok, v.dataset, Object.keys(v.counts)], [false, null, ["io_error"]]);
 * ```
 * @example The demo's Gate A: clean, with its bare and masked runs
 * ```ts
 * import { validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * deepEqual([v.ok, v.issues.length, v.dataset?.n, v.dataset?.k], [true, 0, 400, 14]);
 * deepEqual(v.inputs.map((i) => [i.kind, i.run_id]), [
 *   ["bare", "ckpt-a-val-bare"], ["gate", undefined], ["masked", "gate-a-masked"],
 * ]);
 * ```
 */
export async function validateGates(
  givenDirs: readonly string[],
  options: ValidateGatesOptions = {},
): Promise<GateValidation> {
  // An import's --out stands for its gates (lib/load/import_dirs.ts).
  const gateDirs = await expandImportDirs(givenDirs);
  const { capPerCode, dimensionCap, onProgress, cacheDir } = options;
  const issues = new IssueList(capPerCode === undefined ? {} : { capPerCode });
  if (gateDirs.length === 0) {
    issues.add({ code: "usage_error", message: "no gate directory given" });
    return {
      ok: false,
      issues: issues.toArray(),
      counts: issues.counts(),
      dataset: null,
      inputs: [],
    };
  }
  const timings = options.timings ?? new Timings();
  const read = await timings.timeAsync("parse", () =>
    readValidationInputs(gateDirs, {
      ...(onProgress === undefined ? {} : { onProgress }),
      ...(options.onRead === undefined ? {} : { onRead: options.onRead }),
      ...(cacheDir === undefined ? {} : { cacheDir }),
      ...(options.poolCheckpoints === true ? { poolCheckpoints: true } : {}),
      ...(options.readWorker === undefined ? {} : { readWorker: options.readWorker }),
    }));
  const checksStart = performance.now();
  const step = checkSteps(read, options.onValidate);
  // What parsing left behind is collected before the checks allocate theirs (large inputs only).
  releaseMemory(step.total);
  // One array of planned episodes per distinct plan (a gate's two runs plan the same).
  const planned = new Plans();
  issues.addAll(read.issues);
  // Every bare run checked on its own; each gate is paired with its own one below.
  const bareRuns = read.bares.map((b): BareRun | null =>
    b.manifest
      ? { dir: b.dir, manifest: b.manifest, sha256: b.sha256, attempts: b.table ?? b.attempts }
      : null
  );
  const bareChecked = bareRuns.map((b) => {
    const checked = b === null ? null : bareRunChecks(b, planned);
    step(b === null ? 0 : attemptCount(b.attempts));
    return checked;
  });
  for (const b of bareChecked) issues.addAll(b?.issues ?? []);
  releaseMemory(step.total);
  if (options.poolCheckpoints === true) issues.addAll(sharedRewardChecks(bareRuns));
  const bareOf = (g: GateRead) => {
    const i = g.bareIndex;
    const run = i === null ? null : bareRuns[i] ?? null;
    const checked = i === null ? null : bareChecked[i] ?? null;
    return run !== null && checked !== null ? { run, completed: checked.completed } : null;
  };
  const plans = gatePlanChecks(
    read.gates.map((g) => ({ plan: g.gate.plan, file: g.planFile })),
    dimensionCap === undefined ? {} : { dimensionCap },
  );
  const maskedCompleted: ReadonlyEpisodeMap<Attempt>[] = [];
  const seeds: { file: string; seeds: UncomparedSeeds }[] = [];
  const rows = read.gates.flatMap((g, gi) => {
    issues.addAll(plans.issues[gi]!);
    const own = bareOf(g);
    const gate = checkGate(
      g,
      gi,
      own?.run.manifest ?? null,
      own?.completed ?? new EpisodeMap(),
      step,
      planned,
    );
    issues.addAll(gate.issues);
    maskedCompleted.push(gate.completed);
    if (gate.seeds) seeds.push({ file: join(g.dir, "traces.jsonl"), seeds: gate.seeds });
    return gate.rows;
  });
  const files = read.gates.map((g) => ({
    planFile: g.planFile,
    manifestFile: join(g.dir, "manifest.json"),
  }));
  issues.addAll(designChecks({ columns: plans.columns, rows, gates: files, clean: issues.ok }));
  step(rows.length);
  const owns = read.gates.map(bareOf);
  timings.add("validate", performance.now() - checksStart);
  const result = settle(
    issues,
    options.waive ?? [],
    read,
    () =>
      owns.every((o) => o !== null)
        ? timings.time("pair", () => {
          // The checks' own memory is collected before the dataset's columns are allocated.
          releaseMemory(rows.length);
          // The rows count as they are paired, so a large dataset's build moves the progress.
          let paired = 0;
          return buildPairedDataset(
            datasetInput(read.gates, maskedCompleted, owns, plans.columns, rows),
            { onProgress: (done) => (step(done - paired), paired = done) },
          );
        })
        : null,
  );
  step.end();
  return withSeeds(result, seeds);
}

/**
 * One gate's masked run against the bare run, its assignments, then its
 * episodes: the issues in that order, its rows (none when the masked
 * manifest or the plan did not parse) and its completed attempts.
 */
function checkGate(
  g: GateRead,
  gate: number,
  bareManifest: RunManifest | null,
  bareCompleted: ReadonlyEpisodeMap<Attempt>,
  step: (units: number) => void,
  plans: Plans,
): {
  issues: Issue[];
  rows: PairedRow[];
  completed: ReadonlyEpisodeMap<Attempt>;
  seeds?: UncomparedSeeds;
} {
  const manifest = g.masked.manifest;
  if (!manifest) return { issues: [], rows: [], completed: new EpisodeMap() };
  // The reader's columns when it built them (a run from the cache holds objects).
  const masked = { dir: g.dir, manifest, attempts: g.masked.table ?? g.masked.attempts };
  const pairing = pairingChecks(masked, bareManifest, plans);
  step(attemptCount(masked.attempts));
  const { completed } = pairing;
  if (!g.gate.plan) return { issues: pairing.issues, rows: [], completed };
  const { planned } = pairing, file = join(g.dir, "assignments.jsonl");
  const lines = g.gate.table ?? g.gate.assignments;
  const assignments = assignmentChecks(lines, g.gate.plan, planned, file);
  step(lines.length);
  // The run's and the assignments' checks left their garbage: collected before the rows.
  releaseMemory(planned.length);
  const episodes = episodeChecks({
    gate,
    planned,
    assignments: assignments.byKey,
    masked: completed,
    bare: bareCompleted,
    sendSeed: sendSeed(manifest, bareManifest),
    file: join(g.dir, "traces.jsonl"),
  });
  step(planned.length);
  return {
    issues: [...pairing.issues, ...assignments.issues, ...episodes.issues],
    rows: episodes.rows,
    completed,
    ...(episodes.seeds ? { seeds: episodes.seeds } : {}),
  };
}

/** Number of attempts of a run, objects or columns. */
function attemptCount(attempts: Attempts): number {
  return attempts.length;
}

/**
 * The progress of the checks: the units of every phase (see
 * `ValidateGatesOptions.onValidate`) counted up front from what was read,
 * `step(units)` as a phase ends, and `end()` the whole total (phases that
 * did not run, such as the dataset of a failed validation, are skipped).
 */
function checkSteps(
  read: ValidationRead,
  onValidate: ProgressCallback | undefined,
): ((units: number) => void) & { end: () => void; total: number } {
  let total = 0;
  for (const b of read.bares) total += b.manifest ? attemptCount(b.table ?? b.attempts) : 0;
  for (const g of read.gates) {
    const m = g.masked.manifest;
    if (!m) continue;
    total += attemptCount(g.masked.table ?? g.masked.attempts);
    if (g.gate.plan) total += (g.gate.table ?? g.gate.assignments).length + 3 * planSize(m);
  }
  let done = 0;
  const step = (units: number) => {
    done = Math.min(total, done + units);
    if (onValidate && done < total) onValidate(done, total);
  };
  return Object.assign(step, { end: () => onValidate?.(total, total), total });
}

/** Planned episodes of a manifest (tasks x repeats). */
function planSize(m: RunManifest): number {
  return m.tasks.length * m.repeats;
}

/**
 * Whether a gate's job seeds are compared: both runs sent them (true); a
 * run does not record whether (`send_seed` null and listed unrecorded, and
 * neither says false): "unrecorded", seeds only counted; else false.
 */
function sendSeed(masked: RunManifest, bare: RunManifest | null): boolean | "unrecorded" {
  const m = masked.provenance.send_seed, b = bare?.provenance.send_seed;
  if (m === true && b === true) return true;
  if (m === false || b === false || b === undefined) return false;
  return m === null || b === null ? "unrecorded" : false;
}

/**
 * The validation with its job seeds that were recorded but not compared:
 * one `seed_mismatch` warning per gate whose seeds differ (with the count),
 * and the unrecorded send_seed's warning saying what to do.
 */
function withSeeds(
  v: GateValidation,
  seeds: readonly { file: string; seeds: UncomparedSeeds }[],
): GateValidation {
  if (seeds.length === 0) return v;
  const warnings: Issue[] = [];
  for (const { file, seeds: s } of seeds) {
    if (s.first === undefined) continue;
    const f = s.first;
    warnings.push({
      code: "seed_mismatch",
      message:
        `job seeds differ in ${s.differ} of ${s.recorded} episode(s) (first: bare ${f.bare} at line ${f.bareLine}, masked ${f.masked}); ${SEEDS_NOT_COMPARED}`,
      file,
      line: f.line,
      path: "job_seed",
      episode: episodeLabel(f.episode),
      severity: "warning",
    });
  }
  // The unrecorded send_seed's warning says what to do, now that there are seeds to compare.
  const all = [
    ...(v.warnings ?? []).map((w) =>
      w.code === "provenance_unrecorded" && w.path === "provenance.send_seed"
        ? { ...w, message: `${w.message.replace(/:.*$/, "")}: ${SEEDS_NOT_COMPARED}` }
        : w
    ),
    ...warnings,
  ];
  return {
    ...v,
    ...(all.length > 0 ? { warnings: all } : {}),
  };
}

/** What a user does when job seeds are recorded but whether they were sent is not. */
export const SEEDS_NOT_COMPARED =
  "job seeds are recorded but not compared: set provenance.send_seed in the mapping if the harness sent them";

/** A bare run whose manifest parsed. */
interface BareRun {
  readonly dir: string;
  readonly manifest: RunManifest;
  readonly sha256: string | null;
  readonly attempts: Attempts;
}

/** A gate's own bare run, parsed, with its completed attempts. */
interface OwnBare {
  readonly run: BareRun;
  readonly completed: ReadonlyEpisodeMap<Attempt>;
}

/**
 * Pooled checkpoints must share the reward definition (`provenance.reward`:
 * the metrics and what they mean); one `usage_error` per bare run that does
 * not share the first one's.
 */
function sharedRewardChecks(bares: readonly (BareRun | null)[]): Issue[] {
  const first = bares[0];
  if (!first) return [];
  const reward = canonicalJson(first.manifest.provenance.reward);
  return bares.slice(1).flatMap((b) => {
    if (b === null || canonicalJson(b.manifest.provenance.reward) === reward) return [];
    return [{
      code: "usage_error" as const,
      message: `pooled checkpoints must share the reward: bare run ${b.dir} has provenance.reward ${
        canonicalJson(b.manifest.provenance.reward)
      }, the first gate's bare run ${first.dir} ${reward}; analyze each gate on its own`,
      file: join(b.dir, "manifest.json"),
      path: "provenance.reward",
    }];
  });
}

/** The dataset builder's input from a clean validation (every plan and manifest parsed). */
function datasetInput(
  gates: readonly GateRead[],
  maskedCompleted: readonly ReadonlyEpisodeMap<Attempt>[],
  owns: readonly (OwnBare | null)[],
  columns: readonly DesignColumn[],
  rows: readonly PairedRow[],
): PairedDatasetInput {
  const paired = (o: OwnBare) => ({
    dir: o.run.dir,
    sha256: o.run.sha256!,
    manifest: o.run.manifest,
    completed: o.completed,
  });
  return {
    bare: paired(owns[0]!),
    gates: gates.map((g, gi) => ({
      dir: g.dir,
      bare: paired(owns[gi]!),
      plan: g.gate.plan!,
      masked: {
        run_id: g.masked.manifest!.run_id,
        sha256: g.masked.sha256!,
        completed: maskedCompleted[gi]!,
      },
    })),
    columns,
    rows,
  };
}

/** The result: waived codes set apart, and the dataset built only when no other issue is left. */
function settle(
  issues: IssueList,
  waiveCodes: readonly IssueCode[],
  read: ValidationRead,
  build: () => PairedDataset | null,
): GateValidation {
  const waive = new Set<IssueCode>(waiveCodes);
  const kept = issues.toArray().filter((i) => !waive.has(i.code));
  const counts = Object.fromEntries(
    Object.entries(issues.counts()).filter(([code]) => !waive.has(code as IssueCode)),
  );
  const ok = Object.keys(counts).length === 0;
  const dataset = ok ? build() : null;
  const { inputs } = read;
  const warnings = [...read.warnings, ...unrecordedWarnings(unrecordedSources(read))];
  const extra = warnings.length > 0 ? { warnings } : {};
  if (waive.size === 0) return { ok, issues: kept, counts, dataset, inputs, ...extra };
  const waived = issues.toArray().filter((i) => waive.has(i.code));
  return { ok, issues: kept, counts, dataset, inputs, waived, ...extra };
}

/** The manifests and plans read, in reading order (bare run, then each gate's plan and masked run). */
function unrecordedSources(read: ValidationRead) {
  const out: { file: string; unrecorded?: readonly string[] | undefined }[] = [];
  for (const bare of read.bares) {
    if (!bare.manifest) continue;
    out.push({ file: join(bare.dir, "manifest.json"), unrecorded: bare.manifest.unrecorded });
  }
  for (const g of read.gates) {
    if (g.gate.plan) out.push({ file: g.planFile, unrecorded: g.gate.plan.unrecorded });
    if (g.masked.manifest) {
      out.push({ file: join(g.dir, "manifest.json"), unrecorded: g.masked.manifest.unrecorded });
    }
  }
  return out;
}
