import type { Issue } from "../core/issue.ts";
import { toJsonText } from "../core/atomic_write.ts";
import { UNRECORDED_FIELDS } from "../contract/unrecorded.ts";
import type { ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { LineChunks, PLAIN_TEXT, SAMPLE_SLOTS, slotsWriter, traceWriter } from "./lines.ts";

/** What the source holds besides the rows: the columns found, constant provenance. */
export interface BuildContext {
  /** Components in first-seen order over all sources. */
  readonly components: readonly string[];
  /** Versions named by mask columns, in order (empty when the source has none). */
  readonly maskVersions: readonly string[];
  /**
   * Provenance a run's source records (an inspect log's header), by arm and
   * round (null for the bare run); the mapping's constants fill the rest.
   */
  readonly provenanceOf?: (
    arm: "bare" | "masked",
    round: string | null,
  ) => Readonly<Record<string, unknown>> | undefined;
  /** Whether the source records the planned tasks (not only the tasks that ran). */
  readonly tasksRecorded?: boolean;
  /**
   * The planned tasks of the bare run, in plan order, when the source
   * records them (an inspect log's `eval.dataset.sample_ids`); otherwise the
   * plan is the bare rows' tasks in first-seen order.
   */
  readonly plannedTasks?: readonly string[];
}

/** One directory an import writes, for import.json. */
export interface ImportedDir {
  readonly dir: string;
  readonly kind: "bare" | "gate";
  readonly id: string;
  readonly checkpoint_id: string | null;
  readonly split: string;
  readonly rows: number;
  readonly round?: string | null;
  readonly bare_run_dir?: string;
}

/** The files of an import (paths relative to `--out`) and what import.json says about them. */
export interface ImportBuild {
  readonly files: Record<string, string | readonly string[]>;
  readonly runs: readonly ImportedDir[];
  readonly gates: readonly ImportedDir[];
  /** Field to the files (relative to `--out`) that do not record it. */
  readonly unrecorded: ReadonlyMap<string, string[]>;
  /** Values gatelab chose because the source did not say (documented defaults). */
  readonly defaults: readonly { field: string; value: unknown; why: string }[];
}

interface Version {
  readonly version_id: string;
  readonly slot_id: string;
  readonly chunk_id: string;
  role: "current" | "add" | "old" | "new" | null;
  readonly text_sha256?: string;
}

/** The empty list of versions present, shared (never changed). */
const NONE: readonly string[] = Object.freeze([]);

/**
 * Episode numbers by split, task and sample id, looked up by the strings
 * themselves (no key text made per row): split to task to the number of
 * sample 0, or to the numbers by sample id once a task has another.
 */
class EpisodeNumbers {
  #bySplit = new Map<string, Map<string, number | number[]>>();
  #split: string | null = null;
  #tasks = new Map<string, number | number[]>();
  #tasksOf(split: string, create: boolean): Map<string, number | number[]> | undefined {
    if (split === this.#split) return this.#tasks;
    let tasks = this.#bySplit.get(split);
    if (tasks === undefined) {
      if (!create) return undefined;
      this.#bySplit.set(split, tasks = new Map());
    }
    this.#split = split;
    this.#tasks = tasks;
    return tasks;
  }
  /** The episode's number; `next` (which the caller then counts) when it is new. */
  number(split: string, task: string, sample: number, next: number): number {
    const tasks = this.#tasksOf(split, true)!;
    const v = tasks.get(task);
    if (v === undefined) {
      if (sample === 0) tasks.set(task, next);
      else {
        const list: number[] = [];
        list[sample] = next;
        tasks.set(task, list);
      }
      return next;
    }
    if (typeof v === "number") {
      if (sample === 0) return v;
      const list = [v];
      list[sample] = next;
      tasks.set(task, list);
      return next;
    }
    const e = v[sample];
    if (e !== undefined) return e;
    v[sample] = next;
    return next;
  }
  /** The episode's number, or undefined when no row has it. */
  find(split: string, task: string, sample: number): number | undefined {
    const v = this.#tasksOf(split, false)?.get(task);
    if (v === undefined) return undefined;
    if (typeof v === "number") return sample === 0 ? v : undefined;
    return v[sample];
  }
}
const at = (r: ImportRow, column?: string) =>
  column === undefined
    ? { file: r.file, line: r.row }
    : { file: r.file, line: r.row, path: column };

/**
 * Splits import rows into contract directories: one bare run per
 * (checkpoint, split) and one gate per masked round, with gate.json,
 * assignments.jsonl, the masked run's manifest.json and traces.jsonl, and
 * every field the source does not record written as `null` and listed in
 * the file's `unrecorded` (docs/FORMAT.md, Extensions). Every problem is an
 * issue naming file, row and column; the files are returned only when
 * there is none.
 *
 * @param rows The attempts, in source order.
 * @param mapping The mapping (versions, budget, stage, constant provenance).
 * @param context What the source records.
 * @returns The files, or the issues.
 */
export function buildImport(
  rows: readonly ImportRow[],
  mapping: ImportMapping,
  context: BuildContext,
): { ok: true; value: ImportBuild } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  const defaults: { field: string; value: unknown; why: string }[] = [];
  const maskColumn = (v: string) => `mask:${v}`;
  const injectedColumn = mapping.columns?.injected ?? "injected";
  const maskColumnOf = (v: string) => mapping.columns?.mask?.[v] ?? maskColumn(v);

  // Versions: declared in the mapping, else the mask columns, else the injected ids seen.
  const declared = mapping.versions !== undefined ? Object.keys(mapping.versions) : null;
  const order: string[] = declared ?? [...context.maskVersions];
  const known = new Set(order);
  const closed = declared !== null || context.maskVersions.length > 0;
  if (declared !== null) {
    for (const v of context.maskVersions) {
      if (!known.has(v)) {
        const r = rows[0];
        issues.push({
          code: "assignment_invalid",
          message: `mask column for version "${v}" but the mapping's versions do not declare it`,
          ...(r ? { file: r.file } : {}),
          path: maskColumnOf(v),
        });
      }
    }
  }
  const positionOf = new Map(order.map((v, j) => [v, j]));
  // Per row (by index in `rows`): its episode key and the versions present; runs hold indices.
  // Each episode (split, task, sample) numbered once; everything per episode below is an array
  // indexed by that number instead of a Map keyed by its text.
  const episodeIndex = new EpisodeNumbers();
  const episodeOf = new Int32Array(rows.length);
  let episodes = 0;
  const present: (readonly string[])[] = new Array(rows.length);
  const presentOf = new Map<object, readonly string[]>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const e = episodeIndex.number(r.split, r.task_id, r.sample_id, episodes);
    if (e === episodes) episodes++;
    episodeOf[i] = e;
    let ids: readonly string[];
    if (r.mask !== null) {
      // Rows with equal bits share their mask object (lib/import/rows.ts), so one list each.
      let cached = presentOf.get(r.mask);
      if (cached === undefined) {
        cached = presentIn(r.mask, positionOf);
        presentOf.set(r.mask, cached);
      }
      ids = cached;
    } else ids = r.injected === null || r.injected.length === 0 ? NONE : [...r.injected];
    for (const id of r.injected ?? []) {
      if (known.has(id)) continue;
      if (closed) {
        issues.push({
          code: "assignment_invalid",
          message: `injected id "${id}" is not among the declared versions (${
            order.slice(0, 4).join(", ")
          }${order.length > 4 ? ", ..." : ""})`,
          ...at(r, injectedColumn),
        });
      } else {
        known.add(id);
        order.push(id);
      }
    }
    present[i] = ids;
  }
  const versions = new Map<string, Version>();
  for (const v of order) {
    const d = mapping.versions?.[v];
    const slot = d?.slot ?? (/^(.+)\.v\d+$/.exec(v)?.[1] ?? v);
    versions.set(v, {
      version_id: v,
      slot_id: slot,
      chunk_id: d?.chunk_id ?? slot,
      role: d?.role ?? null,
      ...(d?.text_sha256 !== undefined ? { text_sha256: d.text_sha256 } : {}),
    });
  }
  const slots = new Map<string, Version[]>();
  for (const v of versions.values()) {
    const list = slots.get(v.slot_id) ?? [];
    list.push(v);
    slots.set(v.slot_id, list);
  }
  for (const [slot, list] of slots) {
    if (list.every((v) => v.role !== null)) continue;
    if (list.length === 1) {
      list[0]!.role = "add";
      defaults.push({
        field: `versions.${list[0]!.version_id}.role`,
        value: "add",
        why: "a slot with one version is an ADD candidate unless the mapping says otherwise",
      });
    } else {
      issues.push({
        code: "family_invalid",
        message: `slot "${slot}" has ${list.length} versions (${
          list.map((v) => v.version_id).join(", ")
        }): declare their roles (one old, one or more new) in the mapping's versions`,
        ...(rows[0] ? { file: rows[0].file } : {}),
      });
    }
  }

  // Per row: presence of one slot's versions, bare rows skill-free.
  const bySlot = new Map<string, string>();
  // A list shared by rows (one per distinct mask) is checked once: lists known to hold at most
  // one version per slot.
  const oneVersionPerSlot = new Set<readonly string[]>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const ids = present[i]!;
    // No versions: nothing to check (and no Map cleared, which allocates).
    if (ids.length === 0 || (oneVersionPerSlot.has(ids) && r.arm !== "bare")) continue;
    const column = r.mask !== null ? undefined : injectedColumn;
    if (r.arm === "bare" && ids.length > 0) {
      issues.push({
        code: "bare_not_skill_free",
        message: `a bare row has versions present (${ids.join(", ")})`,
        ...at(r, column ?? maskColumnOf(ids[0]!)),
      });
      continue;
    }
    bySlot.clear();
    let clean = true;
    for (const id of ids) {
      const v = versions.get(id);
      if (!v) continue;
      const other = bySlot.get(v.slot_id);
      if (other !== undefined) {
        clean = false;
        issues.push({
          code: "assignment_invalid",
          message:
            `two versions of slot "${v.slot_id}" in one row (${other} and ${id}); versions of one slot exclude each other`,
          ...at(r, column ?? maskColumnOf(id)),
        });
      } else bySlot.set(v.slot_id, id);
    }
    if (clean && r.mask !== null) oneVersionPerSlot.add(ids);
  }

  // Checkpoints, rounds, bare runs.
  const ckptKey = (c: string | null) => c ?? "";
  const roundKey = (r: ImportRow) =>
    r.round === null ? `\u0001${ckptKey(r.checkpoint_id)}` : `\u0002${r.round}`;
  const roundFirst = new Map<string, ImportRow>();
  const roundRows = new Map<string, number[]>();
  const bareRows = new Map<string, number[]>();
  // The run a row belongs to is usually the previous row's: its key and list are reused.
  let bareLast: ImportRow | null = null, bareList: number[] = [];
  let roundLast: ImportRow | null = null, roundK = "";
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.arm === "bare") {
      if (
        bareLast === null || bareLast.checkpoint_id !== r.checkpoint_id ||
        bareLast.split !== r.split
      ) {
        const k = `${ckptKey(r.checkpoint_id)}\u0000${r.split}`;
        bareList = bareRows.get(k) ?? [];
        bareRows.set(k, bareList);
        bareLast = r;
      }
      bareList.push(i);
      continue;
    }
    if (
      roundLast === null || roundLast.round !== r.round ||
      (r.round === null && roundLast.checkpoint_id !== r.checkpoint_id)
    ) {
      roundK = roundKey(r);
      roundLast = r;
    }
    const k = roundK;
    const first = roundFirst.get(k);
    if (!first) roundFirst.set(k, r);
    else if (first.checkpoint_id !== r.checkpoint_id) {
      issues.push({
        code: "provenance_mismatch",
        message:
          `round "${r.round}" has rows from two checkpoints: "${first.checkpoint_id}" (${first.file} row ${first.row}) and "${r.checkpoint_id}"; one round (one gate) is one checkpoint`,
        ...at(r, mapping.columns?.checkpoint_id ?? "checkpoint_id"),
      });
    } else if (first.split !== r.split) {
      issues.push({
        code: "provenance_mismatch",
        message: `round "${
          r.round ?? "(default)"
        }" has rows of two splits: "${first.split}" (${first.file} row ${first.row}) and "${r.split}"; one gate is one split`,
        ...at(r, mapping.columns?.split ?? "split"),
      });
      continue;
    }
    const list = roundRows.get(k) ?? [];
    list.push(i);
    roundRows.set(k, list);
  }

  // Duplicate completed rows per run and episode, and attempt numbers.
  const attemptOf: number[] = new Array(rows.length);
  // Per episode: rows seen in the run so far, and the first completed row (-1: none); reset
  // after each run for the episodes it touched.
  const seenCount = new Int32Array(episodes);
  const firstCompleted = new Int32Array(episodes).fill(-1);
  const checkRun = (list: readonly number[]) => {
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      const n = seenCount[e]!;
      seenCount[e] = n + 1;
      attemptOf[i] = r.attempt ?? n;
      if (r.status !== "completed") continue;
      const f = firstCompleted[e]!;
      if (f >= 0) {
        const first = rows[f]!;
        issues.push({
          code: "duplicate_completed",
          message:
            `a second completed row for episode ${r.split}/${r.task_id}/${r.sample_id} (first: ${first.file} row ${first.row}); picking one would bias the result`,
          ...at(r),
        });
      } else firstCompleted[e] = i;
    }
    for (const i of list) {
      seenCount[episodeOf[i]!] = 0;
      firstCompleted[episodeOf[i]!] = -1;
    }
  };
  for (const list of bareRows.values()) checkRun(list);
  for (const list of roundRows.values()) checkRun(list);

  // Plans of the bare runs; pairing of every round with its bare run.
  interface BarePlan {
    readonly key: string;
    readonly checkpoint: string | null;
    readonly split: string;
    readonly tasks: string[];
    readonly repeats: number;
    /** Per episode number: its first row here (an index in `rows`), -1 when not in the run. */
    readonly firstRow: Int32Array;
    /** The run's episode numbers in first-seen order. */
    readonly episodes: readonly number[];
    /** Indices in `rows`. */
    readonly rows: readonly number[];
  }
  const plans = new Map<string, BarePlan>();
  for (const [key, list] of bareRows) {
    const tasks: string[] = [];
    const seenTask = new Set<string>();
    const firstRow = new Int32Array(episodes).fill(-1);
    const order: number[] = [];
    let repeats = 1;
    for (const i of list) {
      const r = rows[i]!;
      if (!seenTask.has(r.task_id)) {
        seenTask.add(r.task_id);
        tasks.push(r.task_id);
      }
      repeats = Math.max(repeats, r.sample_id + 1);
      const e = episodeOf[i]!;
      if (firstRow[e]! < 0) {
        firstRow[e] = i;
        order.push(e);
      }
    }
    const first = rows[list[0]!]!;
    let planned = false;
    if (context.plannedTasks !== undefined && context.plannedTasks.length === tasks.length) {
      // The recorded plan's order (the same set: the source checked it).
      tasks.splice(0, tasks.length, ...context.plannedTasks);
      planned = true;
    }
    // Every episode is (a task seen, a sample id below repeats): as many as tasks x repeats
    // means every one is there, and each need not be looked up.
    const full = !planned && order.length === tasks.length * repeats;
    for (const t of full ? [] : tasks) {
      for (let s = 0; s < repeats; s++) {
        const e = episodeIndex.find(first.split, t, s);
        if (e === undefined || firstRow[e]! < 0) {
          issues.push({
            code: "coverage_incomplete",
            message: `task "${t}" has bare rows but none for sample_id ${s}; sample ids run 0..${
              repeats - 1
            } for every task (planned episodes = tasks x sample ids)`,
            file: first.file,
            path: mapping.columns?.sample_id ?? "sample_id",
          });
        }
      }
    }
    plans.set(key, {
      key,
      checkpoint: first.checkpoint_id,
      split: first.split,
      tasks,
      repeats,
      firstRow,
      episodes: order,
      rows: list,
    });
  }
  const pairedBare = new Set<string>();
  const roundPlan = new Map<string, BarePlan>();
  for (const [k, list] of roundRows) {
    const first = rows[list[0]!]!;
    const plan = plans.get(`${ckptKey(first.checkpoint_id)}\u0000${first.split}`);
    const roundName = first.round ?? "(default round)";
    const seen = new Uint8Array(episodes);
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      if (!plan || plan.firstRow[e]! < 0) {
        if (!seen[e]) {
          issues.push({
            code: "coverage_incomplete",
            message:
              `masked row has no bare partner: no bare row for episode ${r.split}/${r.task_id}/${r.sample_id}${
                r.checkpoint_id === null ? "" : ` at checkpoint "${r.checkpoint_id}"`
              }`,
            ...at(r, mapping.columns?.task_id ?? "task_id"),
          });
        }
      }
      seen[e] = 1;
    }
    if (!plan) continue;
    pairedBare.add(plan.key);
    roundPlan.set(k, plan);
    for (const e of plan.episodes) {
      if (!seen[e]) {
        const b = rows[plan.firstRow[e]!]!;
        issues.push({
          code: "coverage_incomplete",
          message:
            `bare row has no masked partner in round "${roundName}": no masked row for episode ${b.split}/${b.task_id}/${b.sample_id}`,
          ...at(b, mapping.columns?.task_id ?? "task_id"),
        });
      }
    }
  }
  for (const plan of plans.values()) {
    if (pairedBare.has(plan.key)) continue;
    const b = rows[plan.rows[0]!]!;
    issues.push({
      code: "coverage_incomplete",
      message: `bare rows${
        plan.checkpoint === null ? "" : ` of checkpoint "${plan.checkpoint}"`
      } (split ${plan.split}) have no masked partner: no masked row for this checkpoint and split`,
      ...at(b, mapping.columns?.arm ?? "arm"),
    });
  }

  // Each episode's mask in each round: all its rows agree.
  // Per round: each episode number's mask (undefined: none recorded).
  const assignment = new Map<string, (readonly string[] | undefined)[]>();
  for (const [k, list] of roundRows) {
    const byEpisode: (readonly string[] | undefined)[] = new Array(episodes);
    const firstRow = new Int32Array(episodes);
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      const ids = present[i]!;
      // A failed row without mask bits or injected ids says nothing about the mask.
      if (r.status === "failed" && r.mask === null && ids.length === 0) continue;
      const prior = byEpisode[e];
      if (prior === undefined) {
        byEpisode[e] = ids;
        firstRow[e] = i;
      } else if (prior !== ids && prior.join("\n") !== ids.join("\n")) {
        const f = rows[firstRow[e]!]!;
        issues.push({
          code: "assignment_invalid",
          message: `rows of one episode disagree on the mask (${
            ids.join(", ") || "none"
          }; ${f.file} row ${f.row}: ${
            prior.join(", ") || "none"
          }); one episode has one planned mask`,
          ...at(r, r.mask !== null ? undefined : injectedColumn),
        });
      }
    }
    assignment.set(k, byEpisode);
  }
  if (issues.length > 0) return { ok: false, issues };

  // Names.
  const checkpoints = [...new Set(rows.map((r) => ckptKey(r.checkpoint_id)))];
  const ckptDir = uniqueSlugs(checkpoints.map((c) => c === "" ? "checkpoint-unrecorded" : c));
  const dirOfCkpt = new Map(checkpoints.map((c, i) => [c, ckptDir[i]!]));
  const splitsOf = new Map<string, Set<string>>();
  for (const p of plans.values()) {
    const c = ckptKey(p.checkpoint);
    splitsOf.set(c, (splitsOf.get(c) ?? new Set()).add(p.split));
  }

  // Provenance and the unrecorded lists.
  const unrecorded = new Map<string, string[]>();
  const mark = (field: string, file: string) => {
    const list = unrecorded.get(field) ?? [];
    list.push(file);
    unrecorded.set(field, list);
  };
  const components = [...context.components];
  const budgetK = mapping.budget_k ?? versions.size;
  if (mapping.budget_k === undefined) {
    defaults.push({
      field: "budget_k",
      value: budgetK,
      why: "no budget given: the number of design columns (every positive version is selected)",
    });
  }
  const stage = mapping.stage ?? "cold_start";
  if (mapping.stage === undefined) {
    defaults.push({
      field: "stage",
      value: stage,
      why: "no stage given: cold_start, the stricter (its 16-column cap applies)",
    });
  }
  const manifest = (
    file: string,
    runId: string,
    arm: "bare" | "masked",
    plan: BarePlan,
    round: string | null,
  ) => {
    const given = {
      ...mapping.provenance,
      ...context.provenanceOf?.(arm, round),
    } as Record<string, unknown>;
    const value = (k: string) => (given[k] === undefined ? null : given[k]);
    const list: string[] = [];
    const field = (path: string, v: unknown) => {
      if (v === null) list.push(path);
      return v;
    };
    const provenance = {
      checkpoint_id: field("provenance.checkpoint_id", plan.checkpoint),
      model: field("provenance.model", value("model")),
      endpoint: field("provenance.endpoint", value("endpoint")),
      sampling: field("provenance.sampling", value("sampling")),
      send_seed: field("provenance.send_seed", value("send_seed")),
      base_prompt_sha256: field("provenance.base_prompt_sha256", value("base_prompt_sha256")),
      environment: field("provenance.environment", value("environment")),
      runtime: field("provenance.runtime", value("runtime")),
      reward: {
        version: field("provenance.reward.version", value("reward_version")),
        components,
      },
      ...(given["inspect"] !== undefined ? { inspect: given["inspect"] } : {}),
    };
    if (!components.includes("r_strict")) list.push("rewards.r_strict");
    if (context.tasksRecorded !== true) list.push("tasks");
    for (const f of list) mark(f, file);
    return {
      format: "gatelab.run/v1",
      run_id: runId,
      arm,
      split: plan.split,
      repeats: plan.repeats,
      tasks: plan.tasks,
      provenance,
      skill: arm === "bare"
        ? { bank: "NoSkills", selected_skills: [], max_skills: null }
        : { bank: "gatelab-import", selected_skills: order, max_skills: null },
      unrecorded: list,
    };
  };
  const traceLine = traceWriter();
  // The injected list's JSON: once per shared versions-present list (one per distinct mask).
  const listJson = new Map<readonly string[], string>();
  const sharedJson = (ids: readonly string[]) => {
    let json = listJson.get(ids);
    if (json === undefined) listJson.set(ids, json = JSON.stringify(ids));
    return json;
  };

  const files: Record<string, string | readonly string[]> = {};
  const runs: ImportedDir[] = [];
  const gates: ImportedDir[] = [];
  const bareDir = new Map<string, string>();
  for (const plan of plans.values()) {
    const c = ckptKey(plan.checkpoint);
    const dir = `${dirOfCkpt.get(c)}/bare-${slug(plan.split)}`;
    bareDir.set(plan.key, dir);
    const runId = `${dirOfCkpt.get(c)}-${slug(plan.split)}-bare`;
    files[`${dir}/manifest.json`] = toJsonText(
      manifest(`${dir}/manifest.json`, runId, "bare", plan, null),
    );
    const lines = new LineChunks();
    for (const i of plan.rows) traceLine(rows[i]!, attemptOf[i]!, NONE, "[]", lines);
    files[`${dir}/traces.jsonl`] = lines.done();
    runs.push({
      dir,
      kind: "bare",
      id: runId,
      checkpoint_id: plan.checkpoint,
      split: plan.split,
      rows: plan.rows.length,
    });
  }
  const gateIds = new Set<string>();
  const slotList = [...slots].map(([slot_id, list]) => ({
    slot_id,
    versions: list.map((v) => ({
      version_id: v.version_id,
      chunk_id: v.chunk_id,
      role: v.role!,
      ...(v.text_sha256 !== undefined ? { text_sha256: v.text_sha256 } : {}),
    })),
  }));
  const slotsJson = slotsWriter(slots.keys(), (id) => versions.get(id)!.slot_id);
  for (const [k, list] of roundRows) {
    const plan = roundPlan.get(k)!;
    const first = rows[list[0]!]!;
    const c = ckptKey(first.checkpoint_id);
    const multipleCkpts = checkpoints.length > 1;
    let gateId = first.round ?? (multipleCkpts ? `gate-${dirOfCkpt.get(c)}` : "gate");
    for (let n = 2; gateIds.has(gateId); n++) gateId = `${first.round ?? "gate"}-${n}`;
    gateIds.add(gateId);
    const name = slug(gateId);
    const splitPart = (splitsOf.get(c)?.size ?? 1) > 1 ? `-${slug(plan.split)}` : "";
    const dir = `${dirOfCkpt.get(c)}/${
      name.startsWith("gate") ? name : `gate-${name}`
    }${splitPart}`;
    const bareRel = `../${bareDir.get(plan.key)!.split("/").pop()}`;
    const gateUnrecorded: string[] = [];
    if (mapping.mask_seed === undefined) gateUnrecorded.push("mask_seed");
    if (mapping.p_present === undefined) gateUnrecorded.push("p_present");
    const maskRecorded = list.some((i) => rows[i]!.mask !== null);
    const injectedRecorded = list.some((i) => rows[i]!.injected !== null);
    if (!maskRecorded) gateUnrecorded.push("assignments");
    if (!injectedRecorded) gateUnrecorded.push("traces.injected");
    for (const f of gateUnrecorded) mark(f, `${dir}/gate.json`);
    files[`${dir}/gate.json`] = toJsonText({
      format: "gatelab.gate/v1",
      gate_id: gateId,
      stage,
      bare_run_dir: bareRel,
      estimator: "paired_delta_ols_no_intercept",
      mask_seed: mapping.mask_seed ?? null,
      p_present: mapping.p_present ?? null,
      budget_k: budgetK,
      slots: slotList,
      unrecorded: gateUnrecorded,
    });
    const masks = assignment.get(k)!;
    const lines = new LineChunks();
    const splitHead = `{"split":${JSON.stringify(plan.split)},"task_id":`;
    for (const t of plan.tasks) {
      lines.add(splitHead + (PLAIN_TEXT.test(t) ? `"${t}"` : JSON.stringify(t)));
      for (let s = 0; s < plan.repeats; s++) {
        const e = episodeIndex.find(plan.split, t, s);
        const ids = (e === undefined ? undefined : masks[e]) ?? NONE;
        if (s > 0) lines.add(splitHead + (PLAIN_TEXT.test(t) ? `"${t}"` : JSON.stringify(t)));
        lines.add(SAMPLE_SLOTS[s] ?? `,"sample_id":${s},"slots":`);
        lines.last(slotsJson(ids));
      }
    }
    files[`${dir}/assignments.jsonl`] = lines.done();
    const runId = `${gateId}-masked`;
    files[`${dir}/manifest.json`] = toJsonText(
      manifest(`${dir}/manifest.json`, runId, "masked", plan, first.round),
    );
    const traces = new LineChunks();
    for (const i of list) {
      const r = rows[i]!;
      if (r.injected !== null) {
        traceLine(r, attemptOf[i]!, r.injected, JSON.stringify(r.injected), traces);
      } else if (r.mask !== null) {
        traceLine(r, attemptOf[i]!, present[i]!, sharedJson(present[i]!), traces);
      } else traceLine(r, attemptOf[i]!, NONE, "[]", traces);
    }
    files[`${dir}/traces.jsonl`] = traces.done();
    gates.push({
      dir,
      kind: "gate",
      id: gateId,
      checkpoint_id: first.checkpoint_id,
      split: plan.split,
      rows: list.length,
      round: first.round,
      bare_run_dir: bareDir.get(plan.key)!,
    });
  }
  return { ok: true, value: { files, runs, gates, unrecorded, defaults } };
}

/**
 * The versions whose mask bit is 1, in the versions' order (`positionOf`,
 * version to place; a bit of any other version is left out). The same as
 * filtering the versions by their bit, without a keyed lookup per version
 * and row: the row's bits are enumerated (in the mask columns' order,
 * which is the versions' order unless a mapping declares them in
 * another) and sorted only when they are out of order.
 */
function presentIn(
  mask: Readonly<Record<string, 0 | 1>>,
  positionOf: ReadonlyMap<string, number>,
): string[] {
  const ids: string[] = [];
  let last = -1, sorted = true;
  for (const v in mask) {
    if (mask[v] !== 1) continue;
    const p = positionOf.get(v);
    if (p === undefined) continue;
    if (p < last) sorted = false;
    last = p;
    ids.push(v);
  }
  if (!sorted) ids.sort((a, b) => positionOf.get(a)! - positionOf.get(b)!);
  return ids;
}

/** The unrecorded fields of an import as import.json lists them. */
export function unrecordedList(
  unrecorded: ReadonlyMap<string, readonly string[]>,
): { field: string; consequence: string; files: readonly string[] }[] {
  return [...unrecorded].map(([field, files]) => ({
    field,
    consequence: UNRECORDED_FIELDS[field] ?? "",
    files,
  }));
}

/** A directory-safe name: letters, digits, `.`, `_`, `-`; anything else becomes `-`. */
export function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return s === "" ? "x" : s;
}

function uniqueSlugs(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let s = slug(n);
    for (let k = 2; used.has(s); k++) s = `${slug(n)}-${k}`;
    used.add(s);
    return s;
  });
}
