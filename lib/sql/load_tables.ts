/**
 * Loads runs and gate plans into DuckDB tables through Arrow IPC streams
 * (much faster than inserting rows one by one). apache-arrow is imported on call.
 *
 * @module
 */
import type { LoadedRun } from "../load/read_run.ts";
import type { GatePlan } from "../contract/gate.ts";
import type { AssignmentLine } from "../contract/assignment.ts";
import type { DuckDb } from "./engine.ts";

/** A gate as loaded for SQL: its plan and assignments. */
export interface SqlGate {
  readonly dir: string;
  readonly plan: GatePlan;
  readonly assignments: readonly AssignmentLine[];
  /** run_id of the gate's masked run, when it could be read. */
  readonly masked_run_id: string | null;
}

/** What {@linkcode loadIntoDuckDb} loads. */
export interface SqlSources {
  readonly runs: readonly LoadedRun[];
  readonly gates: readonly SqlGate[];
}

/** Tables created by {@linkcode loadIntoDuckDb}, with their columns (see docs/validation.md). */
export const SQL_TABLES: Readonly<Record<string, readonly string[]>> = {
  runs: [
    "run_id",
    "run_dir",
    "arm",
    "split",
    "repeats",
    "n_tasks",
    "checkpoint_id",
    "model",
    "endpoint",
    "send_seed",
    "base_prompt_sha256",
    "environment_name",
    "environment_version",
    "runtime_protocol",
    "reward_version",
    "skill_bank",
    "sha256",
  ],
  attempts: [
    "run_id",
    "split",
    "task_id",
    "sample_id",
    "attempt",
    "status",
    "reward",
    "success",
    "job_seed",
    "steps",
    "prompt_tokens",
    "completion_tokens",
    "error",
    "n_injected",
    "line",
  ],
  rewards: ["run_id", "split", "task_id", "sample_id", "attempt", "component", "value"],
  injected: ["run_id", "split", "task_id", "sample_id", "attempt", "version_id"],
  gates: [
    "gate_id",
    "gate_dir",
    "stage",
    "budget_k",
    "mask_seed",
    "p_present",
    "bare_run_dir",
    "masked_run_id",
  ],
  versions: ["gate_id", "slot_id", "version_id", "chunk_id", "role", "column_index"],
  assignments: ["gate_id", "split", "task_id", "sample_id", "slot_id", "version_id"],
};

type Kind = "str" | "f64" | "i32" | "bool";
type Column = { kind: Kind; values: unknown[] };

class TableBuilder {
  readonly columns: Record<string, Column> = {};
  constructor(spec: Record<string, Kind>) {
    for (const [name, kind] of Object.entries(spec)) this.columns[name] = { kind, values: [] };
  }
  push(row: Record<string, unknown>): void {
    for (const [name, col] of Object.entries(this.columns)) col.values.push(row[name] ?? null);
  }
}

/**
 * Creates the tables `runs`, `attempts`, `rewards` (one row per attempt x
 * component), `injected` (one row per attempt x injected version),
 * `gates`, `versions` (one row per design column) and `assignments` (one
 * row per episode x slot; `version_id` NULL when the slot is absent) in an
 * open DuckDB. Failed attempts have NULL reward. Table and column names
 * are listed in {@linkcode SQL_TABLES}.
 *
 * @param db An open database from `openDuckDb`.
 * @param sources Runs and gates to load.
 * @returns Row counts per table.
 */
export async function loadIntoDuckDb(
  db: DuckDb,
  sources: SqlSources,
): Promise<Record<string, number>> {
  const arrow = await import("apache-arrow");
  const runs = new TableBuilder({
    run_id: "str",
    run_dir: "str",
    arm: "str",
    split: "str",
    repeats: "i32",
    n_tasks: "i32",
    checkpoint_id: "str",
    model: "str",
    endpoint: "str",
    send_seed: "bool",
    base_prompt_sha256: "str",
    environment_name: "str",
    environment_version: "str",
    runtime_protocol: "str",
    reward_version: "str",
    skill_bank: "str",
    sha256: "str",
  });
  const attempts = new TableBuilder({
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    status: "str",
    reward: "f64",
    success: "bool",
    job_seed: "f64",
    steps: "f64",
    prompt_tokens: "f64",
    completion_tokens: "f64",
    error: "str",
    n_injected: "i32",
    line: "i32",
  });
  const rewards = new TableBuilder({
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    component: "str",
    value: "f64",
  });
  const injected = new TableBuilder({
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    version_id: "str",
  });
  const gates = new TableBuilder({
    gate_id: "str",
    gate_dir: "str",
    stage: "str",
    budget_k: "i32",
    mask_seed: "f64",
    p_present: "f64",
    bare_run_dir: "str",
    masked_run_id: "str",
  });
  const versions = new TableBuilder({
    gate_id: "str",
    slot_id: "str",
    version_id: "str",
    chunk_id: "str",
    role: "str",
    column_index: "i32",
  });
  const assignments = new TableBuilder({
    gate_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    slot_id: "str",
    version_id: "str",
  });

  for (const run of sources.runs) {
    const m = run.manifest, p = m.provenance;
    runs.push({
      run_id: m.run_id,
      run_dir: run.dir,
      arm: m.arm,
      split: m.split,
      repeats: m.repeats,
      n_tasks: m.tasks.length,
      checkpoint_id: p.checkpoint_id,
      model: p.model,
      endpoint: p.endpoint,
      send_seed: p.send_seed,
      base_prompt_sha256: p.base_prompt_sha256,
      environment_name: p.environment.name,
      environment_version: p.environment.version,
      runtime_protocol: p.runtime.protocol,
      reward_version: p.reward.version,
      skill_bank: m.skill.bank,
      sha256: run.sha256,
    });
    for (const a of run.attempts) {
      const key = {
        run_id: m.run_id,
        split: a.split,
        task_id: a.task_id,
        sample_id: a.sample_id,
        attempt: a.attempt,
      };
      attempts.push({
        ...key,
        status: a.status,
        reward: a.reward,
        success: a.success,
        job_seed: a.job_seed,
        steps: a.steps,
        prompt_tokens: a.tokens?.prompt ?? null,
        completion_tokens: a.tokens?.completion ?? null,
        error: a.error,
        n_injected: a.injected.length,
        line: a.line,
      });
      for (const [component, value] of Object.entries(a.rewards)) {
        rewards.push({ ...key, component, value });
      }
      for (const version_id of a.injected) injected.push({ ...key, version_id });
    }
  }
  for (const g of sources.gates) {
    const plan = g.plan;
    gates.push({
      gate_id: plan.gate_id,
      gate_dir: g.dir,
      stage: plan.stage,
      budget_k: plan.budget_k,
      mask_seed: plan.mask_seed,
      p_present: plan.p_present,
      bare_run_dir: plan.bare_run_dir,
      masked_run_id: g.masked_run_id,
    });
    let column = 0;
    for (const slot of plan.slots) {
      for (const v of slot.versions) {
        versions.push({
          gate_id: plan.gate_id,
          slot_id: slot.slot_id,
          ...v,
          column_index: column++,
        });
      }
    }
    for (const a of g.assignments) {
      for (const [slot_id, version_id] of Object.entries(a.slots)) {
        assignments.push({
          gate_id: plan.gate_id,
          split: a.split,
          task_id: a.task_id,
          sample_id: a.sample_id,
          slot_id,
          version_id,
        });
      }
    }
  }

  // deno-lint-ignore no-explicit-any
  const types: Record<Kind, () => any> = {
    str: () => new arrow.Utf8(),
    f64: () => new arrow.Float64(),
    i32: () => new arrow.Int32(),
    bool: () => new arrow.Bool(),
  };
  const tables = { runs, attempts, rewards, injected, gates, versions, assignments };
  const counts: Record<string, number> = {};
  for (const [name, builder] of Object.entries(tables)) {
    // deno-lint-ignore no-explicit-any
    const vectors: Record<string, any> = {};
    let n = 0;
    for (const [col, { kind, values }] of Object.entries(builder.columns)) {
      vectors[col] = arrow.vectorFromArray(values, types[kind]());
      n = values.length;
    }
    const table = new arrow.Table(vectors);
    await db.insertArrowIpc(name, arrow.tableToIPC(table, "stream"));
    counts[name] = n;
  }
  return counts;
}
