import { join, resolve } from "node:path";
import { type Issue, type IssueCode, IssueList } from "../core/issue.ts";
import {
  type Attempt,
  type DesignColumn,
  type EpisodeKey,
  episodeLabel,
  type GateInfo,
  type PairedDataset,
  type RunRef,
} from "../core/types.ts";
import type { ProgressCallback } from "../core/progress.ts";
import type { GatePlan } from "../contract/gate.ts";
import type { RunManifest } from "../contract/manifest.ts";
import { loadRunParts, type RunParts } from "../load/read_run.ts";
import { type GateParts, type LoadedAssignment, readGateParts } from "../load/read_gate.ts";
import { resolveBareDir } from "../load/bare_dir.ts";
import { episodeKey, plannedEpisodes } from "./plan.ts";
import { PAIRING_PROVENANCE_FIELDS, provenanceDifferences } from "./provenance.ts";
import { designRank } from "./rank.ts";
import { columnAliases, describeAlias } from "./aliases.ts";
import { attemptProvenanceIssues, indexCompleted, rewardIssues } from "./run_checks.ts";
import { gateColumns, slotIssues } from "./slots.ts";

/** One input file set of a validation, with its content hash. */
export interface ValidationInput {
  readonly dir: string;
  /** `bare` run, `gate` plan files (gate.json + assignments.jsonl), `masked` run. */
  readonly kind: "bare" | "gate" | "masked";
  readonly run_id?: string;
  /** sha256 over the files' bytes (manifest then traces; gate.json then assignments), null if unreadable. */
  readonly sha256: string | null;
  /**
   * Runs only (`bare`, `masked`): `hit` when the parsed run came from the
   * run cache, `miss` when it was parsed now (with a cache directory), `off`
   * when no cache was used. Gate plan files are always parsed.
   */
  readonly cache?: RunCacheStatus;
}

/** Where a run's parsed data came from (see {@linkcode ValidationInput}). */
export type RunCacheStatus = "hit" | "miss" | "off";

/** Result of {@linkcode validateGates}. */
export interface GateValidation {
  readonly ok: boolean;
  /** Every issue found (capped per code, with a summary issue per capped code). */
  readonly issues: readonly Issue[];
  /** Number of issues per code, including those past the cap. */
  readonly counts: Record<string, number>;
  /** The paired data, built only when there is no issue. */
  readonly dataset: PairedDataset | null;
  /** Issues of the waived codes (`options.waive`); present only when codes were waived. */
  readonly waived?: readonly Issue[];
  readonly inputs: readonly ValidationInput[];
  /**
   * Warnings that do not fail the validation: `cache_corrupt` when a run
   * cache entry failed its checksum and the run was parsed again.
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
}

interface GateRead {
  readonly dir: string;
  readonly gate: GateParts;
  readonly masked: RunParts;
  readonly maskedCache: RunCacheStatus;
  readonly planFile: string;
  readonly bareDir: string | null;
}

/**
 * Validates one gate directory, or several that share one bare run (pooled
 * rounds of masks), against the data contract and the strict pairing
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
 * @param gateDirs Gate directories (each with gate.json, assignments.jsonl, manifest.json, traces.jsonl).
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
 */
export async function validateGates(
  gateDirs: readonly string[],
  options: ValidateGatesOptions = {},
): Promise<GateValidation> {
  const issues = new IssueList(
    options.capPerCode === undefined ? {} : { capPerCode: options.capPerCode },
  );
  const dimensionCap = options.dimensionCap ?? 16;
  const cacheDir = options.cacheDir;
  const warnings: Issue[] = [];
  const loadRun = async (dir: string): Promise<{ parts: RunParts; cache: RunCacheStatus }> => {
    if (cacheDir === undefined) return { parts: await loadRunParts(dir), cache: "off" };
    // Loaded only with a cache directory: lib/cache pulls in apache-arrow,
    // which commands without --cache should not pay for.
    const { cachedLoadRunParts } = await import("../cache/cached_read_run.ts");
    const loaded = await cachedLoadRunParts(dir, { cacheDir });
    warnings.push(...loaded.warnings);
    return { parts: loaded.parts, cache: loaded.cache };
  };
  const inputs: ValidationInput[] = [];
  if (gateDirs.length === 0) {
    issues.add({ code: "usage_error", message: "no gate directory given" });
    return { ok: false, issues: issues.toArray(), counts: issues.counts(), dataset: null, inputs };
  }
  const total = gateDirs.length * 2 + 1;
  let done = 0;

  // 1. Read every gate's plan files and masked run.
  const gates: GateRead[] = [];
  const given = new Set<string>();
  for (const dir of gateDirs) {
    if (given.has(resolve(dir))) {
      issues.add({
        code: "usage_error",
        message: `gate directory ${dir} is given twice; each round counts once`,
      });
      continue;
    }
    given.add(resolve(dir));
    const gate = await readGateParts(dir);
    const { parts: masked, cache: maskedCache } = await loadRun(dir);
    options.onProgress?.(done += 2, total);
    issues.addAll(gate.issues);
    issues.addAll(masked.issues);
    const bareDir = gate.plan ? resolveBareDir(dir, gate.plan.bare_run_dir) : null;
    gates.push({ dir, gate, masked, maskedCache, planFile: join(dir, "gate.json"), bareDir });
  }

  // 2. The shared bare run.
  const bareDirs = [...new Set(gates.flatMap((g) => (g.bareDir === null ? [] : [g.bareDir])))];
  let bare: RunParts | null = null;
  let bareCache: RunCacheStatus = "off";
  if (bareDirs.length > 0) {
    ({ parts: bare, cache: bareCache } = await loadRun(bareDirs[0]!));
    issues.addAll(bare.issues);
    for (const other of bareDirs.slice(1)) {
      const { parts } = await loadRun(other);
      if (parts.sha256 === null || parts.sha256 !== bare.sha256) {
        const g = gates.find((x) => x.bareDir === other)!;
        issues.add({
          code: "provenance_mismatch",
          message: `gates do not share one bare run: this gate uses ${other}, the first gate uses ${
            bareDirs[0]
          } (different content); pooled rounds must reuse the same bare traces`,
          file: g.planFile,
          path: "bare_run_dir",
        });
      }
    }
  }
  options.onProgress?.(total, total);
  if (bare) inputs.push(runInput(bare, "bare", bareCache));
  for (const g of gates) {
    inputs.push({ dir: g.dir, kind: "gate", sha256: g.gate.sha256 });
    inputs.push(runInput(g.masked, "masked", g.maskedCache));
  }

  // 3. Bare run: skill-free, coverage, rewards, per-attempt provenance.
  const bareManifest = bare?.manifest ?? null;
  let bareCompleted = new Map<string, Attempt>();
  if (bare && bareManifest) {
    const manifestFile = join(bare.dir, "manifest.json");
    const tracesFile = join(bare.dir, "traces.jsonl");
    issues.addAll(bareSkillIssues(bareManifest, manifestFile));
    for (const a of bare.attempts) {
      if (a.injected.length > 0) {
        issues.add({
          code: "bare_not_skill_free",
          message: `bare attempt injected versions [${
            a.injected.join(", ")
          }]; a bare run carries no skill`,
          file: tracesFile,
          line: a.line,
          path: "injected",
          episode: episodeLabel(a),
        });
      }
    }
    const index = indexCompleted(bare.attempts, plannedEpisodes(bareManifest), tracesFile, "bare");
    issues.addAll(index.issues);
    bareCompleted = index.completed;
    for (const a of bareCompleted.values()) {
      issues.addAll(rewardIssues(a, bareManifest.provenance.reward.components, tracesFile));
    }
    issues.addAll(attemptProvenanceIssues(bare.attempts, bareManifest.provenance, tracesFile));
  }

  // 4. Each gate: plan shape, pairing with the bare run, assignments, injections, seeds.
  const columnIndex = new Map<string, number>();
  const columns: DesignColumn[] = [];
  const gateRows: { gate: number; episode: EpisodeKey; mask: string[] | null }[][] = [];
  gates.forEach((g, gi) => {
    const rows: { gate: number; episode: EpisodeKey; mask: string[] | null }[] = [];
    gateRows.push(rows);
    const plan = g.gate.plan;
    const manifest = g.masked.manifest;
    const manifestFile = join(g.dir, "manifest.json");
    const tracesFile = join(g.dir, "traces.jsonl");
    if (plan) {
      issues.addAll(slotIssues(plan, g.planFile));
      const cols = gateColumns(plan);
      if (plan.stage === "cold_start" && cols.length > dimensionCap) {
        issues.add({
          code: "dimension_cap",
          message:
            `cold-start gate has ${cols.length} design columns; at most ${dimensionCap} canonical chunks may enter validation`,
          file: g.planFile,
          path: "slots",
        });
      }
      if (plan.budget_k < 1 || plan.budget_k > cols.length) {
        issues.add({
          code: "budget_invalid",
          message:
            `budget_k ${plan.budget_k} is outside 1..${cols.length} (the number of design columns)`,
          file: g.planFile,
          path: "budget_k",
        });
      }
      cols.forEach((c, ci) => {
        const seen = columnIndex.get(c.version_id);
        if (seen === undefined) {
          columnIndex.set(c.version_id, columns.length);
          columns.push(c);
          return;
        }
        const prev = columns[seen]!;
        if (prev.slot_id !== c.slot_id || prev.chunk_id !== c.chunk_id || prev.role !== c.role) {
          issues.add({
            code: "schema_error",
            message:
              `version ${c.version_id} is (${c.slot_id}, ${c.chunk_id}, ${c.role}) here but (${prev.slot_id}, ${prev.chunk_id}, ${prev.role}) in an earlier gate; pooled gates must define a version the same way`,
            file: g.planFile,
            path: `columns.${ci}`,
          });
        }
      });
    }
    if (!manifest) return;
    if (manifest.arm !== "masked") {
      issues.add({
        code: "schema_error",
        message: `a gate's run must have arm "masked", got "${manifest.arm}"`,
        file: manifestFile,
        path: "arm",
      });
    }
    if (bareManifest) {
      issues.addAll(
        provenanceDifferences(bareManifest, manifest, PAIRING_PROVENANCE_FIELDS, {
          labels: ["bare", "masked"],
          file: manifestFile,
        }),
      );
      const taskIssue = taskSetIssue(bareManifest.tasks, manifest.tasks, manifestFile);
      if (taskIssue) issues.add(taskIssue);
    }
    const planned = plannedEpisodes(manifest);
    const index = indexCompleted(g.masked.attempts, planned, tracesFile, "masked");
    issues.addAll(index.issues);
    for (const a of index.completed.values()) {
      issues.addAll(rewardIssues(a, manifest.provenance.reward.components, tracesFile));
    }
    issues.addAll(attemptProvenanceIssues(g.masked.attempts, manifest.provenance, tracesFile));
    if (!plan) return;

    const assignments = assignmentIndex(
      g.gate.assignments,
      plan,
      planned,
      join(g.dir, "assignments.jsonl"),
    );
    issues.addAll(assignments.issues);
    const sendSeed = manifest.provenance.send_seed && bareManifest?.provenance.send_seed === true;
    for (const episode of planned) {
      const key = episodeKey(episode);
      const assignment = assignments.byKey.get(key);
      const mask = assignment?.valid ? assignment.present : null;
      rows.push({ gate: gi, episode, mask });
      const m = index.completed.get(key);
      if (m && mask) {
        const planned = [...mask].sort(), injected = [...m.injected].sort();
        if (planned.join("\u0000") !== injected.join("\u0000")) {
          issues.add({
            code: "injection_mismatch",
            message: `injected [${injected.join(", ")}] but the assignment plans [${
              planned.join(", ")
            }]`,
            file: tracesFile,
            line: m.line,
            path: "injected",
            episode: episodeLabel(episode),
          });
        }
      }
      const b = bareCompleted.get(key);
      if (
        sendSeed && m && b &&
        (m.job_seed === null || b.job_seed === null || m.job_seed !== b.job_seed)
      ) {
        issues.add({
          code: "seed_mismatch",
          message:
            `job seeds differ with send_seed on: bare ${b.job_seed} (line ${b.line}), masked ${m.job_seed}`,
          file: tracesFile,
          line: m.line,
          path: "job_seed",
          episode: episodeLabel(episode),
        });
      }
    }
  });

  // 5. Pooled design: every column present, full column rank.
  const allRows = gateRows.flat();
  const usable = allRows.filter((r) => r.mask !== null);
  const k = columns.length;
  if (k > 0 && usable.length === 0 && issues.ok) {
    // Nothing paired at all (every masked run plans zero tasks): name the
    // manifests, since no row and no trace line is there to point at.
    for (const g of gates) {
      issues.add({
        code: "not_identifiable",
        message:
          `the masked run plans no tasks, so the gate has 0 paired rows and none of its ${k} coefficients can be estimated`,
        file: join(g.dir, "manifest.json"),
        path: "tasks",
      });
    }
  }
  if (k > 0 && usable.length > 0) {
    const design = new Uint8Array(usable.length * k);
    usable.forEach((r, i) => {
      for (const v of r.mask!) {
        const j = columnIndex.get(v);
        if (j !== undefined) design[i * k + j] = 1;
      }
    });
    const rank = designRank(design, usable.length, k);
    const planFile = gates.length === 1 ? gates[0]!.planFile : undefined;
    columns.forEach((c, j) => {
      if (rank.presence[j] === 0) {
        issues.add({
          code: "not_identifiable",
          message:
            `version ${c.version_id} is never present in ${usable.length} rows; its coefficient cannot be estimated`,
          ...(planFile ? { file: planFile } : {}),
          path: c.version_id,
        });
      }
    });
    if (rank.rank < k) {
      // One issue per dependent column, naming the relation to fix (lib/validate/aliases.ts).
      const names = columns.map((c) => c.version_id);
      for (const alias of columnAliases(design, usable.length, k, rank.dependent)) {
        issues.add({
          code: "not_identifiable",
          message: `design matrix has rank ${rank.rank} of ${k} columns (${usable.length} rows): ` +
            describeAlias(alias, names) +
            (alias.terms.length > 0 ? "; their effects cannot be told apart" : ""),
          ...(planFile ? { file: planFile } : {}),
          path: names[alias.column]!,
        });
      }
    }
  }

  const waive = new Set<IssueCode>(options.waive ?? []);
  const kept = issues.toArray().filter((i) => !waive.has(i.code));
  const counts = Object.fromEntries(
    Object.entries(issues.counts()).filter(([code]) => !waive.has(code as IssueCode)),
  );
  const ok = Object.keys(counts).length === 0;
  const dataset = ok && bare && bareManifest
    ? buildDataset(bare, bareManifest, gates, columns, columnIndex, allRows, bareCompleted)
    : null;
  const extra = warnings.length > 0 ? { warnings } : {};
  if (waive.size === 0) return { ok, issues: kept, counts, dataset, inputs, ...extra };
  const waived = issues.toArray().filter((i) => waive.has(i.code));
  return { ok, issues: kept, counts, dataset, inputs, waived, ...extra };
}

function runInput(
  parts: RunParts,
  kind: "bare" | "masked",
  cache: RunCacheStatus,
): ValidationInput {
  return {
    dir: parts.dir,
    kind,
    ...(parts.manifest ? { run_id: parts.manifest.run_id } : {}),
    sha256: parts.sha256,
    cache,
  };
}

function bareSkillIssues(manifest: RunManifest, file: string): Issue[] {
  const out: Issue[] = [];
  if (manifest.arm !== "bare") {
    out.push({
      code: "bare_not_skill_free",
      message:
        `the baseline run has arm "${manifest.arm}"; only a bare run counts (a masked run with all-zero masks is not bare)`,
      file,
      path: "arm",
    });
  }
  if (manifest.skill.bank !== "NoSkills") {
    out.push({
      code: "bare_not_skill_free",
      message: `the bare run's skill bank is "${manifest.skill.bank}", expected "NoSkills"`,
      file,
      path: "skill.bank",
    });
  }
  if (manifest.skill.selected_skills.length > 0) {
    out.push({
      code: "bare_not_skill_free",
      message: `the bare run selected skills [${
        manifest.skill.selected_skills.join(", ")
      }], expected []`,
      file,
      path: "skill.selected_skills",
    });
  }
  return out;
}

function taskSetIssue(
  bareTasks: readonly string[],
  maskedTasks: readonly string[],
  file: string,
): Issue | null {
  const b = new Set(bareTasks), m = new Set(maskedTasks);
  const onlyBare = [...b].filter((t) => !m.has(t)).sort();
  const onlyMasked = [...m].filter((t) => !b.has(t)).sort();
  if (onlyBare.length === 0 && onlyMasked.length === 0) return null;
  const sample = (xs: string[]) => xs.slice(0, 3).join(", ") + (xs.length > 3 ? ", ..." : "");
  const parts: string[] = [];
  if (onlyBare.length > 0) parts.push(`${onlyBare.length} only in bare (${sample(onlyBare)})`);
  if (onlyMasked.length > 0) {
    parts.push(`${onlyMasked.length} only in masked (${sample(onlyMasked)})`);
  }
  return {
    code: "provenance_mismatch",
    message: `tasks differ: bare plans ${b.size} tasks, masked ${m.size}; ${parts.join("; ")}`,
    file,
    path: "tasks",
  };
}

function assignmentIndex(
  assignments: readonly LoadedAssignment[],
  plan: GatePlan,
  planned: readonly EpisodeKey[],
  file: string,
): { byKey: Map<string, { valid: boolean; present: string[] }>; issues: Issue[] } {
  const issues: Issue[] = [];
  const plannedKeys = new Set(planned.map(episodeKey));
  const slots = new Map(
    plan.slots.map((s) => [s.slot_id, new Set(s.versions.map((v) => v.version_id))]),
  );
  const byKey = new Map<string, { valid: boolean; present: string[] }>();
  const lineOf = new Map<string, number>();
  for (const a of assignments) {
    const key = episodeKey(a);
    const where = { file, line: a.line, episode: episodeLabel(a) };
    if (!plannedKeys.has(key)) {
      issues.push({
        code: "assignment_invalid",
        message: "assignment for an episode outside the masked run's plan",
        ...where,
      });
      continue;
    }
    if (lineOf.has(key)) {
      issues.push({
        code: "assignment_invalid",
        message: `second assignment for one episode (first at line ${
          lineOf.get(key)
        }); one line per planned episode`,
        ...where,
      });
      byKey.set(key, { valid: false, present: [] });
      continue;
    }
    lineOf.set(key, a.line);
    let valid = true;
    const present: string[] = [];
    for (const [slotId, versionId] of Object.entries(a.slots)) {
      const versions = slots.get(slotId);
      if (!versions) {
        issues.push({
          code: "assignment_invalid",
          message: `unknown slot "${slotId}"`,
          ...where,
          path: `slots.${slotId}`,
        });
        valid = false;
      } else if (versionId !== null && !versions.has(versionId)) {
        issues.push({
          code: "assignment_invalid",
          message: `version "${versionId}" is not a version of slot "${slotId}"`,
          ...where,
          path: `slots.${slotId}`,
        });
        valid = false;
      } else if (versionId !== null) present.push(versionId);
    }
    for (const slotId of slots.keys()) {
      if (!Object.hasOwn(a.slots, slotId)) {
        issues.push({
          code: "assignment_invalid",
          message: `slot "${slotId}" is not assigned (use null for an absent slot)`,
          ...where,
          path: `slots.${slotId}`,
        });
        valid = false;
      }
    }
    byKey.set(key, { valid, present });
  }
  for (const e of planned) {
    if (!byKey.has(episodeKey(e))) {
      issues.push({
        code: "assignment_invalid",
        message: "planned episode has no assignment line",
        file,
        episode: episodeLabel(e),
      });
    }
  }
  return { byKey, issues };
}

function buildDataset(
  bare: RunParts,
  bareManifest: RunManifest,
  gates: readonly GateRead[],
  columns: readonly DesignColumn[],
  columnIndex: ReadonlyMap<string, number>,
  rows: readonly { gate: number; episode: EpisodeKey; mask: string[] | null }[],
  bareCompleted: ReadonlyMap<string, Attempt>,
): PairedDataset {
  const metrics = ["reward", ...bareManifest.provenance.reward.components];
  const n = rows.length, k = columns.length;
  const design = new Uint8Array(n * k);
  const masked: Record<string, Float64Array> = {};
  const bareValues: Record<string, Float64Array> = {};
  const delta: Record<string, Float64Array> = {};
  for (const m of metrics) {
    masked[m] = new Float64Array(n);
    bareValues[m] = new Float64Array(n);
    delta[m] = new Float64Array(n);
  }
  const maskedIndex = gates.map((g) =>
    new Map(
      g.masked.attempts.filter((a) => a.status === "completed").map((a) => [episodeKey(a), a]),
    )
  );
  const gateIndex = new Uint16Array(n);
  const cluster = new Int32Array(n);
  const clusterIds = new Map<string, number>();
  const value = (
    a: Attempt,
    metric: string,
  ) => (metric === "reward" ? a.reward! : a.rewards[metric]!);
  rows.forEach((row, i) => {
    const key = episodeKey(row.episode);
    for (const v of row.mask!) design[i * k + columnIndex.get(v)!] = 1;
    const m = maskedIndex[row.gate]!.get(key)!;
    const b = bareCompleted.get(key)!;
    for (const metric of metrics) {
      const mv = value(m, metric), bv = value(b, metric);
      masked[metric]![i] = mv;
      bareValues[metric]![i] = bv;
      delta[metric]![i] = mv - bv;
    }
    gateIndex[i] = row.gate;
    const task = JSON.stringify([row.episode.split, row.episode.task_id]);
    let c = clusterIds.get(task);
    if (c === undefined) clusterIds.set(task, c = clusterIds.size);
    cluster[i] = c;
  });
  const baseline: RunRef = { run_id: bareManifest.run_id, run_dir: bare.dir, sha256: bare.sha256! };
  const gateInfos: GateInfo[] = gates.map((g) => ({
    gate_id: g.gate.plan!.gate_id,
    gate_dir: g.dir,
    stage: g.gate.plan!.stage,
    budget_k: g.gate.plan!.budget_k,
    mask_seed: g.gate.plan!.mask_seed,
    p_present: g.gate.plan!.p_present,
    masked: { run_id: g.masked.manifest!.run_id, run_dir: g.dir, sha256: g.masked.sha256! },
  }));
  return {
    baseline,
    gates: gateInfos,
    columns,
    metrics,
    n,
    k,
    design,
    masked,
    bare: bareValues,
    delta,
    episodes: rows.map((r) => r.episode),
    gateIndex,
    cluster,
    clusterCount: clusterIds.size,
  };
}
