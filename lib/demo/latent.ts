/**
 * The latent shift of a rollout: checkpoint shift plus the effects of the
 * injected versions plus any planted interaction.
 *
 * @module
 */
import { DEMO_NOISE, type LatentEffect } from "./params.ts";

/** True latent effects of a set of versions and their interactions. */
export interface LatentModel {
  /** Checkpoint key of {@linkcode DEMO_NOISE.checkpointShift}. */
  readonly checkpoint: string;
  /** Latent effect of each version id. */
  readonly effects: ReadonlyMap<string, LatentEffect>;
  /** Pairwise interactions, added when both versions are injected. */
  readonly interactions: readonly {
    readonly versions: readonly [string, string];
    readonly effect: LatentEffect;
  }[];
}

/**
 * Latent shift of (type, attr, option, price) for one rollout.
 *
 * @param model The latent model.
 * @param injected Version ids injected into the prompt.
 * @returns The shift per component.
 * @throws {RangeError} When an injected version has no effect in the model.
 *
 * @example
 * ```ts
 * import { latentShift } from "./latent.ts";
 * import { deepEqual } from "node:assert/strict";
 * const model = {
 *   checkpoint: "ckpt-a",
 *   effects: new Map([["a", [1, 0, 0, 0] as const], ["b", [0, 1, 0, 0] as const]]),
 *   interactions: [{ versions: ["a", "b"] as const, effect: [0, 0, -1, 0] as const }],
 * };
 * deepEqual(latentShift(model, ["a", "b"]), [1, 1, -1, 0]);
 * ```
 */
export function latentShift(model: LatentModel, injected: readonly string[]): number[] {
  const base = DEMO_NOISE.checkpointShift[model.checkpoint] ?? 0;
  const shift = [base, base, base, base];
  for (const id of injected) {
    const effect = model.effects.get(id);
    if (!effect) throw new RangeError(`Cannot compute latent shift: no effect for version "${id}"`);
    for (let c = 0; c < 4; c++) shift[c]! += effect[c]!;
  }
  for (const { versions, effect } of model.interactions) {
    if (injected.includes(versions[0]) && injected.includes(versions[1])) {
      for (let c = 0; c < 4; c++) shift[c]! += effect[c]!;
    }
  }
  return shift;
}
