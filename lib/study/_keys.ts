/** Private helpers: identity keys and orders of slots, seeds and tasks. */

/** A training seed as written in the input: integer or string. */
export type TrainSeed = number | string;

/** Typed key of a training seed, so that 1 and "1" stay distinct. */
export function seedKey(seed: TrainSeed): string {
  return typeof seed === "number" ? `n:${seed}` : `s:${seed}`;
}

/** Identity of a logical slot (arm, train_seed, task_id, rep). */
export function slotKey(
  slot: { arm: string; train_seed: TrainSeed; task_id: string; rep: number },
): string {
  return `${slot.arm}\u0000${seedKey(slot.train_seed)}\u0000${slot.task_id}\u0000${slot.rep}`;
}

/** Human label of a slot for issues: `arm/seed/task/rep`. */
export function slotLabel(
  slot: { arm: string; train_seed: TrainSeed; task_id: string; rep: number },
): string {
  return `${slot.arm}/${slot.train_seed}/${slot.task_id}/${slot.rep}`;
}

/** Seed order: integers ascending, then strings in code-unit order. */
export function compareSeeds(a: TrainSeed, b: TrainSeed): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return compareText(a, b);
}

/** Plain code-unit string order (locale-independent). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
