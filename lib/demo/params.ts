/**
 * The fixed parameters of the demo study: seeds, chunk texts, true latent
 * effects, noise levels and provenance. Everything the simulator draws
 * follows from these constants, so the demo data is reproducible byte for
 * byte and its truth is known.
 *
 * Latent scale: every WebShop-like reward component c (type, attr, option,
 * price) has a success probability `sigmoid(q_c)` per rollout, with
 * `q_c = base_c + checkpoint shift + task difficulty + task offset_c +
 * sum of injected version effects_c + interaction_c + rollout shock`.
 *
 * @module
 */

/** The four latent components in the order of every effect vector. */
export const LATENT_COMPONENTS = ["type", "attr", "option", "price"] as const;

/** A latent effect on (type, attr, option, price). */
export type LatentEffect = readonly [number, number, number, number];

/** One chunk version of the demo: id, text and true latent effect. */
export interface DemoVersion {
  readonly version_id: string;
  readonly chunk_id: string;
  readonly text: string;
  readonly effect: LatentEffect;
}

/** Reward components of the demo runs, in manifest order. */
export const REWARD_COMPONENTS = [
  "r_strict",
  "r_success",
  "r_type",
  "r_attr",
  "r_option",
  "r_price",
] as const;

/** Decimals every reward value is rounded to. */
export const REWARD_DECIMALS = 4;

/** Seeds of every random stream of the demo. */
export const DEMO_SEEDS = {
  /** Validation tasks (difficulty, attribute and option counts). */
  valTasks: 5101,
  /** Held-out test tasks of Gate B. */
  testTasks: 5102,
  /** Rollout noise of each run (one stream per run). */
  bareA: 6101,
  gateA: 6102,
  bareB: 6201,
  onlineR1: 6202,
  onlineR2: 6203,
  bareTest: 6301,
  equippedTest: 6302,
  /** Masks (recorded as gate.json mask_seed). */
  maskGateA: 20260901,
  maskOnlineR1: 20261011,
  maskOnlineR2: 20261012,
  /** Infrastructure failures (which episodes fail first). */
  failures: 7101,
  /** Study outcomes and steps. */
  study: 8101,
  steps: 9101,
} as const;

/** Noise and base rates of the latent model. */
export const DEMO_NOISE = {
  /** Base logit per component (type, attr, option, price). */
  base: [1.6, 0.7, 0.5, 0.6] as LatentEffect,
  /** Standard deviation of the task difficulty shared by all components and arms. */
  taskDifficultySd: 1.0,
  /** Standard deviation of the per-task, per-component offset. */
  taskComponentSd: 0.5,
  /** Standard deviation of the per-rollout shock shared by the components of one rollout. */
  rolloutSd: 0.5,
  /** When the type is not fully matched, probability it is half matched (r_type 0.5). */
  typeHalfProbability: 0.6,
  /** Checkpoint shifts on every component logit. */
  checkpointShift: { "ckpt-a": 0, "ckpt-b": 0.3 } as Record<string, number>,
  /** Fraction of episodes whose first attempt fails for infrastructure reasons. */
  infraFailureRate: 0.012,
} as const;

const all = (x: number): LatentEffect => [x, x, x, x];

/**
 * The 14 ADD chunks of cold-start Gate A, after a shopping skeleton (query formulation, explicit constraints, persona,
 * candidate inspection, variant and price, backtracking and termination).
 */
export const GATE_A_CHUNKS: readonly DemoVersion[] = [
  {
    version_id: "query-formulation.v1",
    chunk_id: "query-formulation",
    text:
      "Build the first search query from the product type and the two most specific hard constraints; leave soft preferences out of the query.",
    effect: [1.3, 0.6, 0.45, 0.4],
  },
  {
    version_id: "query-refinement.v1",
    chunk_id: "query-refinement",
    text:
      "If no result on the first page matches the product type, rewrite the query once with a synonym of the type before browsing further pages.",
    effect: [0.45, 0.15, 0.05, 0.05],
  },
  {
    version_id: "explicit-constraint-checklist.v1",
    chunk_id: "explicit-constraint-checklist",
    text:
      "Before browsing, list every explicit constraint of the instruction (attributes, options, price ceiling) and check each one off on the item page.",
    effect: [0.3, 1.1, 0.9, 0.8],
  },
  {
    version_id: "attribute-matching.v1",
    chunk_id: "attribute-matching",
    text:
      "Match each required attribute against the item description and bullet points, not the title alone; an attribute not stated counts as unmatched.",
    effect: [0.1, 0.9, 0.1, 0.0],
  },
  {
    version_id: "persona-preference-reasoning.v1",
    chunk_id: "persona-preference-reasoning",
    text:
      "Use the persona only to break ties between items that satisfy every explicit constraint; never let a persona preference override a constraint.",
    effect: [0.05, 0.05, 0.0, 0.0],
  },
  {
    version_id: "persona-budget-inference.v1",
    chunk_id: "persona-budget-inference",
    text:
      "When the instruction gives no price ceiling, infer a soft budget from the persona and prefer items below it.",
    effect: [0.0, 0.0, 0.0, -0.05],
  },
  {
    version_id: "candidate-inspection.v1",
    chunk_id: "candidate-inspection",
    text:
      "Open at least the top two plausible items and read their description and features before choosing.",
    effect: [1.8, 1.8, 1.6, 1.4],
  },
  {
    version_id: "candidate-comparison.v1",
    chunk_id: "candidate-comparison",
    text:
      "Compare the shortlisted items side by side on the constraint checklist and keep the one that satisfies the most constraints.",
    effect: [1.7, 1.7, 1.6, 1.4],
  },
  {
    version_id: "variant-option-selection.v1",
    chunk_id: "variant-option-selection",
    text:
      "Select every required option (size, color, count) on the item page before buying; the default variant is rarely the requested one.",
    effect: [0.0, 0.25, 1.5, 0.3],
  },
  {
    version_id: "variant-price-check.v1",
    chunk_id: "variant-price-check",
    text:
      "After switching to the target variant, re-read the price of that variant and compare it with the price ceiling.",
    effect: [0.0, 0.0, 0.3, 1.3],
  },
  {
    version_id: "backtracking-on-mismatch.v1",
    chunk_id: "backtracking-on-mismatch",
    text:
      "If an opened item violates a hard constraint, go back to the results instead of adjusting the plan to fit the item.",
    effect: [0.2, 0.25, 0.15, 0.15],
  },
  {
    version_id: "purchase-termination.v1",
    chunk_id: "purchase-termination",
    text:
      "Buy only after every checklist item is verified on the chosen variant; do not keep browsing once all constraints are met.",
    effect: [0.1, 0.1, 0.2, 0.15],
  },
  {
    version_id: "results-pagination.v1",
    chunk_id: "results-pagination",
    text: "Look at the second results page before settling on an item from the first page.",
    effect: [-0.3, -0.3, -0.3, -0.3],
  },
  {
    version_id: "review-reading.v1",
    chunk_id: "review-reading",
    text: "Read the customer reviews of each candidate and prefer the item with the best reviews.",
    effect: [-0.4, -0.55, -0.55, -0.45],
  },
];

/**
 * The one planted interaction of Gate A: the two inspection chunks are
 * substitutes. Either alone gets the shortlisted items read against the
 * constraints (a large latent effect, about +1.7); with both, the agent
 * re-opens and re-compares the same items and spends its 15-step budget, so
 * together they add only +0.3 on every component (1.8 + 1.7 - 3.2), far
 * less than the sum and less than either alone. On the reward scale of
 * Gate A's design the expected product coefficient is about -0.32, large
 * enough for the Holm-corrected interaction screen over 91 pairs (HC3 se
 * about 0.07) to find it; the additive OLS coefficients of the two chunks
 * average over the partner's presence and come out near zero.
 */
export const GATE_A_INTERACTION = {
  versions: ["candidate-inspection.v1", "candidate-comparison.v1"] as const,
  effect: [-3.2, -3.2, -2.9, -2.5] as LatentEffect,
} as const;

/** A slot of an online gate: role and its versions. */
export interface DemoSlot {
  readonly slot_id: string;
  readonly role: "current" | "add" | "family";
  readonly versions:
    readonly (DemoVersion & { readonly role: "current" | "add" | "old" | "new" })[];
}

const v = (
  version_id: string,
  role: "current" | "add" | "old" | "new",
  text: string,
  effect: LatentEffect,
): DemoVersion & { role: "current" | "add" | "old" | "new" } => ({
  version_id,
  chunk_id: version_id.slice(0, version_id.lastIndexOf(".")),
  text,
  effect,
  role,
});

const chunkText = (versionId: string): string =>
  GATE_A_CHUNKS.find((c) => c.version_id === versionId)?.text ?? "";

/**
 * The slots of the online gates on checkpoint B: current chunks (effects on
 * the trained checkpoint, partly internalised), ADD candidates and two
 * REWRITE families, one with two new versions.
 */
export const ONLINE_SLOTS: readonly DemoSlot[] = [
  {
    slot_id: "query-formulation",
    role: "current",
    versions: [
      v("query-formulation.v1", "current", chunkText("query-formulation.v1"), [
        0.5,
        0.25,
        0.15,
        0.15,
      ]),
    ],
  },
  {
    slot_id: "attribute-matching",
    role: "current",
    versions: [
      v("attribute-matching.v1", "current", chunkText("attribute-matching.v1"), [
        0.05,
        0.5,
        0.05,
        0,
      ]),
    ],
  },
  {
    slot_id: "candidate-comparison",
    role: "current",
    versions: [
      v("candidate-comparison.v1", "current", chunkText("candidate-comparison.v1"), all(0.02)),
    ],
  },
  {
    slot_id: "persona-preference-reasoning",
    role: "current",
    versions: [
      v(
        "persona-preference-reasoning.v1",
        "current",
        chunkText("persona-preference-reasoning.v1"),
        [-0.1, -0.15, -0.1, -0.05],
      ),
    ],
  },
  {
    slot_id: "size-chart-check",
    role: "add",
    versions: [
      v(
        "size-chart-check.v1",
        "add",
        "For apparel and shoes, open the size chart and map the requested size before selecting the size option.",
        [0, 0.1, 0.7, 0],
      ),
    ],
  },
  {
    slot_id: "pack-quantity-check",
    role: "add",
    versions: [
      v(
        "pack-quantity-check.v1",
        "add",
        "When the instruction names a count or pack size, check the pack quantity of the variant, not only the unit price.",
        [0, 0.2, 0.35, 0.3],
      ),
    ],
  },
  {
    slot_id: "brand-guard",
    role: "add",
    versions: [
      v(
        "brand-guard.v1",
        "add",
        "Do not add a brand name to the search query unless the instruction names the brand.",
        all(0),
      ),
    ],
  },
  {
    slot_id: "variant-price-check",
    role: "family",
    versions: [
      v("variant-price-check.v1", "old", chunkText("variant-price-check.v1"), [0, 0, 0.2, 0.6]),
      v(
        "variant-price-check.v2",
        "new",
        "After switching to the target variant, re-read that variant's price, including per-unit and shipping notes, and compare it with the ceiling before buying.",
        [0, 0, 0.3, 0.95],
      ),
    ],
  },
  {
    slot_id: "purchase-termination",
    role: "family",
    versions: [
      v("purchase-termination.v1", "old", chunkText("purchase-termination.v1"), [
        0.1,
        0.1,
        0.2,
        0.15,
      ]),
      v(
        "purchase-termination.v2",
        "new",
        "Buy as soon as the chosen variant meets every explicit constraint; do not search further for a marginally better item.",
        [0.05, 0.05, 0.1, 0.05],
      ),
      v(
        "purchase-termination.v3",
        "new",
        "Before clicking buy, re-open the chosen variant and verify each checklist item once more; back out if any fails.",
        [0.2, 0.3, 0.35, 0.3],
      ),
    ],
  },
];

/** Plan settings of the gates. */
export const GATE_SETTINGS = {
  pPresent: 0.5,
  gateABudget: 10,
  onlineBudget: 8,
  valTasks: 400,
  testTasks: 300,
} as const;

/** Provenance shared by every run (checkpoint id set per checkpoint). */
export const DEMO_PROVENANCE = {
  model: "qwen3.5-4b-instruct",
  endpoint: "http://inference.internal:8000/v1",
  sampling: { temperature: 0.7, top_p: 0.95, max_tokens: 1024 },
  send_seed: true,
  base_prompt_sha256: "",
  environment: { name: "shopsim-webshop", version: "2.3.1", config_sha256: "" },
  runtime: { protocol: "react-text-v2", max_steps: 15 },
  reward: { version: "webshop-strict-1.2", components: [...REWARD_COMPONENTS] },
} as const;

/** Base (skill-free) system prompt; its sha256 goes into the manifests. */
export const BASE_PROMPT =
  "You are a shopping assistant in a web store. Follow the instruction, search, inspect items, select options and buy exactly one item.\n";

/** Environment configuration; its sha256 goes into the manifests. */
export const ENVIRONMENT_CONFIG =
  '{"catalog":"webshop-1.18m","split_file":"splits-v3","observation":"text","max_page_chars":3000}\n';

/** Checkpoint identities (operator supplied). */
export const CHECKPOINTS = {
  "ckpt-a": "qwen3.5-4b-sft@rev-8d2f1c0",
  "ckpt-b": "qwen3.5-4b-grpo-round3@rev-41b9e77",
  "ckpt-c": "qwen3.5-4b-grpo-round6@rev-c75e0d2",
} as const;

/** Study (FORMAT section 3) settings. */
export const STUDY_SETTINGS = {
  arms: ["B", "O", "M"] as const,
  trainSeeds: [1, 2, 3] as const,
  tasks: 40,
  reps: 4,
  /** Base logit of resolution per arm. */
  armLogit: { B: -0.9, O: -0.55, M: -0.2 } as Record<string, number>,
  taskSd: 1.6,
  seedSd: 0.25,
  comparisons: [["M", "B"], ["M", "O"]] as const,
  bootstrap: { draws: 10000, seed: 20260927 },
  /** Planted attempt events (counts over the whole study). */
  verifierInfra: 7,
  generationInfra: 6,
  modelFailure: 3,
  /** Ambiguous slots, all in this arm. */
  ambiguousArm: "O",
  ambiguous: 3,
} as const;
