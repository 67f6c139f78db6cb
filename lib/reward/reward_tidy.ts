/**
 * The tidy table of `gate reward`: `rewards`, one row per line of
 * rewards.jsonl (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import { MASK_REASONS } from "./mask.ts";

/** The fields of one rewards.jsonl line that the table reads. */
export interface RewardRow {
  readonly trajectory_id: string;
  readonly recipe: string;
  readonly reward: number | null;
  readonly n_steps: number;
  readonly n_masked: number;
  readonly mask_reasons: Readonly<Record<string, number>>;
  readonly verdict_mode: string;
  readonly penalized: boolean;
  readonly weights?: string;
  readonly equals_recipe_a?: boolean;
}

/**
 * `rewards`: rewards.jsonl's fields, `mask_reasons` as one int32 column
 * `masked_<reason>` per reason (in lib/reward `MASK_REASONS` order);
 * `weights` and `equals_recipe_a` missing outside recipe C.
 *
 * @param lines rewards.jsonl's lines.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { rewardsTidy } from "./reward_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = rewardsTidy([{ trajectory_id: "t1", recipe: "A", reward: 0.5, n_steps: 3, n_masked: 1,
 *   mask_reasons: { revoked: 1 }, verdict_mode: "session", penalized: false }]);
 * deepEqual([t.columns[2]!.values[0], t.columns.find((c) => c.name === "masked_revoked")!.values[0]], [0.5, 1]);
 * ```
 */
export function rewardsTidy(lines: readonly RewardRow[]): TidyTable {
  return tidyFromRows(
    "rewards",
    {
      trajectory_id: "str",
      recipe: "str",
      reward: "f64",
      n_steps: "i32",
      n_masked: "i32",
      ...Object.fromEntries(MASK_REASONS.map((r) => [`masked_${r}`, "i32" as const])),
      verdict_mode: "str",
      penalized: "bool",
      weights: "str",
      equals_recipe_a: "bool",
    },
    lines.map((l) => ({
      ...l,
      ...Object.fromEntries(MASK_REASONS.map((r) => [`masked_${r}`, l.mask_reasons[r] ?? 0])),
    })),
  );
}
