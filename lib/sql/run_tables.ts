import type { LoadedRun } from "../load/read_run.ts";
import { TableBuilder } from "./_table_builder.ts";
import type { SqlTableData } from "./sql_schema.ts";

/**
 * The run tables of SQL: `runs` (one row per run, its manifest flattened),
 * `attempts` (one row per trace line; failed attempts have NULL reward),
 * `rewards` (one row per attempt x reward component) and `injected` (one
 * row per attempt x injected version), in run then file order.
 *
 * @param runs Runs as read.
 * @param only Build only these of the four tables (the others come back empty).
 * @returns The four tables' data.
 *
 * @example
 * ```ts
 * import { runTables } from "./run_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = runTables([]);
 * deepEqual(Object.entries(t).map(([name, d]) => [name, d.rows]), [["runs", 0], ["attempts", 0], ["rewards", 0], ["injected", 0]]);
 * ```
 */
export function runTables(
  runs: readonly LoadedRun[],
  only?: ReadonlySet<string>,
): Record<"runs" | "attempts" | "rewards" | "injected", SqlTableData> {
  const wanted = (name: string) => only === undefined || only.has(name);
  const [wantAttempts, wantRewards, wantInjected] = ["attempts", "rewards", "injected"].map(wanted);
  const runRows = new TableBuilder("runs");
  const attempts = new TableBuilder("attempts");
  const rewards = new TableBuilder("rewards");
  const injected = new TableBuilder("injected");
  for (const run of runs) {
    const m = run.manifest, p = m.provenance;
    runRows.push({
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
      environment_name: p.environment?.name ?? null,
      environment_version: p.environment?.version ?? null,
      runtime_protocol: p.runtime?.protocol ?? null,
      reward_version: p.reward.version,
      skill_bank: m.skill.bank,
      sha256: run.sha256,
    });
    if (!wantAttempts && !wantRewards && !wantInjected) continue;
    for (const a of run.attempts) {
      const key = {
        run_id: m.run_id,
        split: a.split,
        task_id: a.task_id,
        sample_id: a.sample_id,
        attempt: a.attempt,
      };
      if (wantAttempts) {
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
      }
      if (wantRewards) {
        for (const [component, value] of Object.entries(a.rewards)) {
          rewards.push({ ...key, component, value });
        }
      }
      if (wantInjected) {
        for (const version_id of a.injected) injected.push({ ...key, version_id });
      }
    }
  }
  return {
    runs: runRows.build(),
    attempts: attempts.build(),
    rewards: rewards.build(),
    injected: injected.build(),
  };
}
