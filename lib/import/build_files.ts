/**
 * The last phase of an import's build (lib/import/build.ts): once the rows
 * passed every check, the directories' names and every file's bytes (the
 * bare runs' manifest.json and traces.jsonl, each gate's gate.json,
 * assignments.jsonl, manifest.json and traces.jsonl), with every field the
 * source does not record written as `null` and listed as unrecorded.
 *
 * @module
 */
import { toJsonText } from "../core/atomic_write.ts";
import { type BarePlan, type BuildState, checkpointKey, NONE } from "./build_state.ts";
import { LineChunks, PLAIN_TEXT, SAMPLE_SLOTS, slotsWriter, traceWriter } from "./lines.ts";
import { type ImportNames, importNames, type Renamed } from "./build_names.ts";
import { RowOrigins } from "./row_origins.ts";

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

/** What the files phase makes: the files, the directories and the unrecorded fields. */
export interface BuiltFiles {
  readonly files: Record<string, string | readonly string[]>;
  readonly runs: ImportedDir[];
  readonly gates: ImportedDir[];
  readonly unrecorded: Map<string, string[]>;
  /** Values whose directory got a suffix (another value makes the same name). */
  readonly renamed: readonly Renamed[];
  /** The source row of each traces.jsonl line. */
  readonly origins: RowOrigins;
  /** Whether some row records a job seed. */
  readonly seedsRecorded: boolean;
}

/** What every file of one import shares: the state, the names, the writers. */
interface Writing {
  readonly s: BuildState;
  readonly out: BuiltFiles;
  readonly names: ImportNames;
  readonly budgetK: number;
  readonly stage: "cold_start" | "online";
  readonly traceLine: ReturnType<typeof traceWriter>;
}

/** Every file of the import, from a state that passed every check. */
export function buildFiles(s: BuildState): BuiltFiles {
  const names = importNames(s);
  const w: Writing = {
    s,
    out: {
      files: {},
      runs: [],
      gates: [],
      unrecorded: new Map(),
      renamed: names.renamed,
      origins: new RowOrigins(s.rows),
      seedsRecorded: s.rows.some((r) => r.job_seed !== null),
    },
    names,
    budgetK: s.mapping.budget_k ?? s.versions.size,
    stage: s.mapping.stage ?? "cold_start",
    traceLine: traceWriter(),
  };
  if (s.mapping.budget_k === undefined) {
    s.defaults.push({
      field: "budget_k",
      value: w.budgetK,
      why: "no budget given: the number of design columns (every positive version is selected)",
    });
  }
  if (s.mapping.stage === undefined) {
    s.defaults.push({
      field: "stage",
      value: w.stage,
      why: "no stage given: cold_start, the stricter (its 16-column cap applies)",
    });
  }
  for (const plan of s.plans.values()) writeBareRun(w, plan);
  writeGates(w);
  return w.out;
}

/** Lists a field as unrecorded in a file. */
function mark(w: Writing, field: string, file: string): void {
  const list = w.out.unrecorded.get(field) ?? [];
  list.push(file);
  w.out.unrecorded.set(field, list);
}

/** A run's manifest: the mapping's and the source's provenance, `null` and listed where neither says. */
function manifest(
  w: Writing,
  file: string,
  runId: string,
  arm: "bare" | "masked",
  plan: BarePlan,
  round: string | null,
) {
  const { mapping, context, order } = w.s;
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
  const components = [...context.components];
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
  for (const f of list) mark(w, f, file);
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
}

/** A bare run's directory: manifest.json and traces.jsonl. */
function writeBareRun(w: Writing, plan: BarePlan): void {
  const { rows, attemptOf } = w.s;
  const c = checkpointKey(plan.checkpoint);
  const { dir, split } = w.names.bare.get(plan.key)!;
  const runId = `${w.names.checkpointDir.get(c)}-${split}-bare`;
  w.out.files[`${dir}/manifest.json`] = toJsonText(
    manifest(w, `${dir}/manifest.json`, runId, "bare", plan, null),
  );
  const lines = new LineChunks();
  for (const i of plan.rows) w.traceLine(rows[i]!, attemptOf[i]!, NONE, "[]", lines);
  w.out.files[`${dir}/traces.jsonl`] = lines.done();
  w.out.origins.record(`${dir}/traces.jsonl`, plan.rows);
  w.out.runs.push({
    dir,
    kind: "bare",
    id: runId,
    checkpoint_id: plan.checkpoint,
    split: plan.split,
    rows: plan.rows.length,
  });
}

/** Every round's gate directory: gate.json, assignments.jsonl, manifest.json, traces.jsonl. */
function writeGates(w: Writing): void {
  const { s } = w;
  const slotList = [...s.slots].map(([slot_id, list]) => ({
    slot_id,
    versions: list.map((v) => ({
      version_id: v.version_id,
      chunk_id: v.chunk_id,
      role: v.role!,
      ...(v.text_sha256 !== undefined ? { text_sha256: v.text_sha256 } : {}),
    })),
  }));
  const slotsJson = slotsWriter(s.slots.keys(), (id) => s.versions.get(id)!.slot_id);
  for (const [k, list] of s.roundRows) {
    const plan = s.roundPlan.get(k)!;
    const first = s.rows[list[0]!]!;
    const { id: gateId, dir } = w.names.gate.get(k)!;
    const bareDir = w.names.bare.get(plan.key)!.dir;
    const bareRel = `../${bareDir.split("/").pop()}`;
    const gateUnrecorded: string[] = [];
    if (s.mapping.mask_seed === undefined) gateUnrecorded.push("mask_seed");
    if (s.mapping.p_present === undefined) gateUnrecorded.push("p_present");
    const maskRecorded = list.some((i) => s.rows[i]!.mask !== null);
    const injectedRecorded = list.some((i) => s.rows[i]!.injected !== null);
    if (!maskRecorded) gateUnrecorded.push("assignments");
    if (!injectedRecorded) gateUnrecorded.push("traces.injected");
    for (const f of gateUnrecorded) mark(w, f, `${dir}/gate.json`);
    w.out.files[`${dir}/gate.json`] = toJsonText({
      format: "gatelab.gate/v1",
      gate_id: gateId,
      stage: w.stage,
      bare_run_dir: bareRel,
      estimator: "paired_delta_ols_no_intercept",
      mask_seed: s.mapping.mask_seed ?? null,
      p_present: s.mapping.p_present ?? null,
      budget_k: w.budgetK,
      slots: slotList,
      unrecorded: gateUnrecorded,
    });
    w.out.files[`${dir}/assignments.jsonl`] = assignmentLines(
      w,
      plan,
      s.assignment.get(k)!,
      slotsJson,
    );
    const runId = `${gateId}-masked`;
    w.out.files[`${dir}/manifest.json`] = toJsonText(
      manifest(w, `${dir}/manifest.json`, runId, "masked", plan, first.round),
    );
    w.out.files[`${dir}/traces.jsonl`] = maskedTraces(w, list);
    w.out.origins.record(`${dir}/traces.jsonl`, list);
    w.out.gates.push({
      dir,
      kind: "gate",
      id: gateId,
      checkpoint_id: first.checkpoint_id,
      split: plan.split,
      rows: list.length,
      round: first.round,
      bare_run_dir: bareDir,
    });
  }
}

/** assignments.jsonl of a round: one line per planned episode, its slots' versions present. */
function assignmentLines(
  w: Writing,
  plan: BarePlan,
  masks: readonly (readonly string[] | undefined)[],
  slotsJson: (ids: readonly string[]) => string,
): string[] {
  const lines = new LineChunks();
  const splitHead = `{"split":${JSON.stringify(plan.split)},"task_id":`;
  for (const t of plan.tasks) {
    lines.add(splitHead + (PLAIN_TEXT.test(t) ? `"${t}"` : JSON.stringify(t)));
    for (let sample = 0; sample < plan.repeats; sample++) {
      const e = w.s.episodeIndex.find(plan.split, t, sample);
      const ids = (e === undefined ? undefined : masks[e]) ?? NONE;
      if (sample > 0) lines.add(splitHead + (PLAIN_TEXT.test(t) ? `"${t}"` : JSON.stringify(t)));
      lines.add(SAMPLE_SLOTS[sample] ?? `,"sample_id":${sample},"slots":`);
      lines.last(slotsJson(ids));
    }
  }
  return lines.done();
}

/** traces.jsonl of a round's masked run, each row's injected ids as recorded or from its mask. */
function maskedTraces(w: Writing, list: readonly number[]): string[] {
  const { rows, attemptOf, present } = w.s;
  // The injected list's JSON: once per shared versions-present list (one per distinct mask).
  const listJson = new Map<readonly string[], string>();
  const sharedJson = (ids: readonly string[]) => {
    let json = listJson.get(ids);
    if (json === undefined) listJson.set(ids, json = JSON.stringify(ids));
    return json;
  };
  const traces = new LineChunks();
  for (const i of list) {
    const r = rows[i]!;
    if (r.injected !== null) {
      w.traceLine(r, attemptOf[i]!, r.injected, JSON.stringify(r.injected), traces);
    } else if (r.mask !== null) {
      w.traceLine(r, attemptOf[i]!, present[i]!, sharedJson(present[i]!), traces);
    } else w.traceLine(r, attemptOf[i]!, NONE, "[]", traces);
  }
  return traces.done();
}
