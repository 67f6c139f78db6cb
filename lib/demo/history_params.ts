/**
 * Parameters of the demo's third checkpoint (ckpt-c): one online gate
 * whose skill is the pooled selection of the two rounds at ckpt-b, with a
 * planted internalizing chunk, a retired chunk, a REWRITE that wins, one
 * that loses, and a re-proposed rejected candidate; plus a cross-service
 * copy of the gate whose masked run was served from another endpoint.
 *
 * @module
 */
import { GATE_A_CHUNKS, type LatentEffect, ONLINE_SLOTS } from "./params.ts";

/** Seeds of the ckpt-c streams (their own range; ckpt-a/b streams are untouched). */
export const HISTORY_SEEDS = {
  bareC: 6401,
  gateC: 6406,
  crossService: 6403,
  maskGateC: 20261121,
  maskCrossService: 20261122,
  failures: 7201,
} as const;

/** Endpoint of the cross-service gate's masked run (the bare run used the usual one). */
export const CROSS_SERVICE_ENDPOINT = "http://partner-inference.example:8000/v1";

/** Budget of the ckpt-c gate. */
export const GATE_C_BUDGET = 8;

const textOf = (id: string): string =>
  GATE_A_CHUNKS.find((c) => c.version_id === id)?.text ??
    ONLINE_SLOTS.flatMap((s) => s.versions).find((v) => v.version_id === id)?.text ?? "";

/** One version of the ckpt-c gate. */
export interface HistoryVersion {
  readonly version_id: string;
  readonly chunk_id: string;
  readonly role: "current" | "add" | "old" | "new";
  readonly text: string;
  readonly effect: LatentEffect;
}

const v = (
  version_id: string,
  role: HistoryVersion["role"],
  effect: LatentEffect,
  text = textOf(version_id),
): HistoryVersion => ({
  version_id,
  chunk_id: version_id.slice(0, version_id.lastIndexOf(".")),
  role,
  text,
  effect,
});

/**
 * Slots of the ckpt-c gate. The `current` and `old` versions are exactly
 * the pooled ckpt-b selection (checked by the history test).
 * `query-formulation.v1` is the planted internalizing chunk (latent effect
 * 1.3/0.6/0.45/0.4 at ckpt-a, 0.5/0.25/0.15/0.15 at ckpt-b, near zero
 * here); `candidate-comparison.v1` is retired (negative at ckpt-c);
 * `attribute-matching.v2` beats its old version; `purchase-termination.v4`
 * loses to `.v3`; `brand-guard.v2` re-proposes the rejected `brand-guard`
 * candidate of ckpt-b under a new version id.
 */
export const GATE_C_SLOTS: readonly {
  readonly slot_id: string;
  readonly versions: readonly HistoryVersion[];
}[] = [
  {
    slot_id: "query-formulation",
    versions: [v("query-formulation.v1", "current", [0.12, 0.08, 0.06, 0.06])],
  },
  {
    slot_id: "pack-quantity-check",
    versions: [v("pack-quantity-check.v1", "current", [0, 0.2, 0.35, 0.3])],
  },
  {
    slot_id: "variant-price-check",
    versions: [v("variant-price-check.v2", "current", [0, 0, 0.3, 0.85])],
  },
  {
    slot_id: "size-chart-check",
    versions: [v("size-chart-check.v1", "current", [0, 0.1, 0.6, 0])],
  },
  {
    slot_id: "candidate-comparison",
    versions: [v("candidate-comparison.v1", "current", [-0.25, -0.3, -0.25, -0.2])],
  },
  {
    slot_id: "attribute-matching",
    versions: [
      v("attribute-matching.v1", "old", [0.05, 0.3, 0.05, 0]),
      v(
        "attribute-matching.v2",
        "new",
        [0.2, 1.6, 0.2, 0.1],
        "Match each required attribute against the description, the bullet points and the variant table; when an attribute is stated nowhere, treat the item as not matching and look further.",
      ),
    ],
  },
  {
    slot_id: "purchase-termination",
    versions: [
      v("purchase-termination.v3", "old", [0.2, 0.3, 0.35, 0.3]),
      v(
        "purchase-termination.v4",
        "new",
        [-0.1, -0.1, -0.05, -0.05],
        "Buy the first item whose title mentions the product type and every requested option; skip re-opening the item page.",
      ),
    ],
  },
  {
    slot_id: "unit-price-normalisation",
    versions: [
      v(
        "unit-price-normalisation.v1",
        "add",
        [0, 0.1, 0.2, 0.6],
        "When items come in different pack sizes, compare the price per unit before checking it against the ceiling.",
      ),
    ],
  },
  {
    slot_id: "brand-guard",
    versions: [
      v(
        "brand-guard.v2",
        "add",
        [-0.05, -0.05, -0.05, -0.05],
        "Leave brand names out of the search query unless the instruction itself names a brand.",
      ),
    ],
  },
];
