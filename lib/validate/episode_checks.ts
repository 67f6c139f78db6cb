import type { Issue } from "../core/issue.ts";
import { type Attempt, type EpisodeKey, episodeLabel } from "../core/types.ts";
import type { AssignmentEntry } from "./assignment_checks.ts";
import type { ReadonlyEpisodeMap } from "./episode_map.ts";
import { attemptLookup } from "./completed_attempts.ts";
import type { AttemptTable } from "../load/attempt_table.ts";

/** One row of the pooled design: a gate's planned episode and its mask (null when its assignment is missing or invalid). */
export interface PairedRow {
  /** Index of the gate in the validation's gate order. */
  readonly gate: number;
  readonly episode: EpisodeKey;
  readonly mask: readonly string[] | null;
}

/** Input of {@linkcode episodeChecks}: one gate's episodes and what each arm and the assignments hold for them. */
export interface EpisodeChecksInput {
  /** Index of the gate in the validation's gate order. */
  readonly gate: number;
  /** The masked run's planned episodes, in plan order. */
  readonly planned: readonly EpisodeKey[];
  /** The assignment per episode key ({@linkcode assignmentChecks}). */
  readonly assignments: ReadonlyEpisodeMap<AssignmentEntry>;
  /** The masked run's completed attempt per episode key. */
  readonly masked: ReadonlyEpisodeMap<Attempt>;
  /** The bare run's completed attempt per episode key. */
  readonly bare: ReadonlyEpisodeMap<Attempt>;
  /**
   * Whether both runs sent job seeds (`provenance.send_seed`), so that seeds
   * must match; `"unrecorded"` when a run does not record it (an import):
   * then seeds recorded in both runs are only counted, with their differences.
   */
  readonly sendSeed: boolean | "unrecorded";
  /** The masked run's traces.jsonl path for the issues. */
  readonly file: string;
}

/**
 * The per-episode checks of one gate, in plan order: the masked attempt
 * injected exactly the versions its valid assignment plans
 * (`injection_mismatch`), and with `sendSeed` the masked and bare attempts
 * ran with the same job seed (`seed_mismatch`). Also the gate's design
 * rows, one per planned episode.
 *
 * @param input The gate's episodes, assignments and completed attempts.
 * @returns The rows in plan order, and the issues.
 *
 * @example
 * ```ts
 * import { episodeChecks } from "./episode_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = { split: "val", task_id: "a", sample_id: 0 };
 * const attempt = (injected: string[], job_seed: number) => ({ ...e, attempt: 0, status: "completed" as const, reward: 1, rewards: {}, success: null, injected, job_seed, steps: null, tokens: null, error: null, provenance: null, line: 3 });
 * import { EpisodeMap } from "./episode_map.ts";
 * const r = episodeChecks({
 *   gate: 0, planned: [e], assignments: new EpisodeMap([[e, { valid: true, present: ["v"] }]]),
 *   masked: new EpisodeMap([[e, attempt([], 5)]]), bare: new EpisodeMap([[e, attempt([], 6)]]), sendSeed: true, file: "t.jsonl",
 * });
 * deepEqual([r.rows[0]!.mask, r.issues.map((i) => i.code)], [["v"], ["injection_mismatch", "seed_mismatch"]]);
 * ```
 */
export function episodeChecks(
  input: EpisodeChecksInput,
): { rows: PairedRow[]; issues: Issue[]; seeds?: UncomparedSeeds } {
  const { file } = input;
  const rows: PairedRow[] = [];
  const issues: Issue[] = [];
  let seeds:
    | { recorded: number; differ: number; first?: NonNullable<UncomparedSeeds["first"]> }
    | undefined;
  // The attempts' columns: an attempt is read in place, built as an object for no check.
  const masked = attemptLookup(input.masked), bare = attemptLookup(input.bare);
  const mt = masked.table, bt = bare.table;
  for (const episode of input.planned) {
    const assignment = input.assignments.get(episode);
    const mask = assignment?.valid ? assignment.present : null;
    rows.push({ gate: input.gate, episode, mask });
    const m = masked.rows.get(episode) ?? -1;
    if (m >= 0 && mask && !injectedInOrder(mask, mt, m)) {
      const planned = [...mask].sort(), injected = [...mt.injectedOf(m)].sort();
      if (planned.join("\u0000") !== injected.join("\u0000")) {
        issues.push({
          code: "injection_mismatch",
          message: `injected [${injected.join(", ")}] but the assignment plans [${
            planned.join(", ")
          }]`,
          file,
          line: mt.lineOf(m),
          path: "injected",
          episode: episodeLabel(episode),
        });
      }
    }
    const b = bare.rows.get(episode) ?? -1;
    if (input.sendSeed === "unrecorded") {
      if (m >= 0 && b >= 0) {
        const ms = mt.jobSeedOf(m), bs = bt.jobSeedOf(b);
        if (ms !== null && bs !== null) {
          seeds ??= { recorded: 0, differ: 0 };
          seeds.recorded++;
          if (ms !== bs && seeds.differ++ === 0) {
            seeds.first = {
              episode,
              line: mt.lineOf(m),
              bareLine: bt.lineOf(b),
              bare: bs,
              masked: ms,
            };
          }
        }
      }
    } else if (input.sendSeed && m >= 0 && b >= 0) {
      const ms = mt.jobSeedOf(m), bs = bt.jobSeedOf(b);
      if (ms === null || bs === null || ms !== bs) {
        issues.push({
          code: "seed_mismatch",
          message: ms === null && bs === null
            ? `job seeds are missing although send_seed is on: job_seed is null in both runs (bare line ${
              bt.lineOf(b)
            }); each episode must record the seed it was sent`
            : `job seeds differ with send_seed on: bare ${bs} (line ${bt.lineOf(b)}), masked ${ms}`,
          file,
          line: mt.lineOf(m),
          path: "job_seed",
          episode: episodeLabel(episode),
        });
      }
    }
  }
  return seeds === undefined ? { rows, issues } : { rows, issues, seeds };
}

/**
 * Job seeds recorded in both runs of a gate whose runs do not record
 * whether they were sent: how many episodes have both, how many differ,
 * and the first that differs.
 */
export interface UncomparedSeeds {
  /** Planned episodes with a completed attempt and a job seed in both runs. */
  readonly recorded: number;
  /** Those whose seeds differ. */
  readonly differ: number;
  /** The first that differs. */
  readonly first?: {
    readonly episode: EpisodeKey;
    readonly line: number;
    readonly bareLine: number;
    readonly bare: number;
    readonly masked: number;
  };
}

/**
 * Whether `a` holds the versions attempt i injected, in the same order
 * (then also as sorted sets).
 */
function injectedInOrder(a: readonly string[], table: AttemptTable, i: number): boolean {
  if (a.length !== table.injectedCount(i)) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== table.injectedAt(i, j)) return false;
  return true;
}
