/**
 * The main demo's truth.json: the latent model, the effect definitions, and
 * what each part of the simulation knows to be true (Gate A's effects and
 * selections, the online rounds', Gate B's expected means), from the facts
 * the generator's phases return.
 *
 * @module
 */
import type { SimulatedGate } from "./gate.ts";
import type { LatentModel } from "./latent.ts";
import {
  DEMO_NOISE,
  DEMO_SEEDS,
  GATE_A_CHUNKS,
  GATE_A_INTERACTION,
  LATENT_COMPONENTS,
  type LatentEffect,
  ONLINE_SLOTS,
  REWARD_DECIMALS,
} from "./params.ts";
import type { RefitSelection } from "./refit.ts";
import type { SimulatedRun } from "./run.ts";
import type { SimulatedSteps } from "./steps.ts";
import type { SimulatedStudy } from "./study.ts";
import type { EffectTable } from "./truth.ts";

/** What checkpoint A's phase knows: Gate A's truth and S_0, the product's refit selection. */
export interface CheckpointA {
  readonly model: LatentModel;
  readonly ame: EffectTable;
  readonly ols: EffectTable;
  /** The expected coefficient of the planted pair's product column. */
  readonly interaction: Record<string, number>;
  /** Positive top-K by the true reward effect. */
  readonly trueTopK: string[];
  readonly refit: RefitSelection;
  /** The refit's selection in rank order: the skill Gate B injects. */
  readonly s0: string[];
}

/** What checkpoint B's phase knows: its bare run, the online rounds and their truth. */
export interface CheckpointB {
  readonly bare: SimulatedRun;
  readonly rounds: readonly {
    readonly gateId: string;
    readonly maskSeed: number;
    readonly noiseSeed: number;
    readonly gate: SimulatedGate;
  }[];
  /** Pooled over the rounds. */
  readonly ame: EffectTable;
  readonly olsPooled: EffectTable;
  readonly perGateOls: Record<string, EffectTable>;
  readonly selection: { readonly winners: string[]; readonly selected: string[] };
}

/** Gate B's expected arm means and differences, with S_0 and with the true top-K. */
export interface GateBOutcome {
  readonly bareMeans: Record<string, number>;
  readonly equippedMeans: Record<string, number>;
  readonly difference: Record<string, number>;
  readonly trueTopKMeans: Record<string, number>;
  readonly trueTopKDifference: Record<string, number>;
}

/** Everything truth.json records. */
export interface DemoTruthFacts {
  readonly a: CheckpointA;
  readonly b: CheckpointB;
  readonly g: GateBOutcome;
  readonly failures: Record<string, unknown>;
  readonly study: SimulatedStudy;
  readonly steps: SimulatedSteps;
}

const latentTable = (versions: readonly { version_id: string; effect: LatentEffect }[]) =>
  Object.fromEntries(versions.map((v) => [v.version_id, [...v.effect]]));

function latentModel(): Record<string, unknown> {
  return {
    components: [...LATENT_COMPONENTS],
    link:
      "P(component matched) = sigmoid(base + checkpoint_shift + task_difficulty + task_offset + sum(version effects) + interaction + rollout_shock)",
    base: [...DEMO_NOISE.base],
    task_difficulty_sd: DEMO_NOISE.taskDifficultySd,
    task_component_sd: DEMO_NOISE.taskComponentSd,
    rollout_sd: DEMO_NOISE.rolloutSd,
    type_half_probability: DEMO_NOISE.typeHalfProbability,
    checkpoint_shift: { ...DEMO_NOISE.checkpointShift },
    reward_decimals: REWARD_DECIMALS,
    r_strict:
      "r_type * (attributes matched + options matched + price ok) / (n_attr + n_opt + 1); 1 exactly on success; reward == r_strict",
  };
}

function gateATruth(a: CheckpointA): Record<string, unknown> {
  return {
    gate_dir: "ckpt-a/gate-a",
    latent_effects: latentTable(GATE_A_CHUNKS),
    interaction: {
      versions: [...GATE_A_INTERACTION.versions],
      latent_effect: [...GATE_A_INTERACTION.effect],
      note:
        "functional substitution: either inspection chunk alone helps a lot; with both the agent re-opens and re-compares the same items, so together they add far less than the sum of their main effects (less than either alone)",
      expected_product_coefficient: a.interaction,
      expected_product_coefficient_definition:
        "coefficient of the product column C_a C_b added to the paired-delta no-intercept OLS, (Z'Z)^-1 Z' mu with Z = [X, C_a C_b]: what the interaction screen estimates for this pair up to rollout noise",
    },
    average_marginal_effect: a.ame,
    expected_ols: a.ols,
    truly_positive: GATE_A_CHUNKS.map((c) => c.version_id).filter((id) => a.ame.reward![id]! > 0),
    true_selection: a.trueTopK,
    refit_selection: {
      rule:
        "gate analyze on the simulated files: paired-delta no-intercept OLS on reward, strictly positive top budget_k (10) by coefficient; this is S_0, the skill Gate B injects",
      selected: a.s0,
      reward_coefficients: Object.fromEntries(
        Object.entries(a.refit.coefficients).map(([id, b]) => [id, Math.round(b * 1e6) / 1e6]),
      ),
      budget_k: a.refit.budgetK,
    },
  };
}

function onlineTruth(b: CheckpointB): Record<string, unknown> {
  return {
    gate_dirs: b.rounds.map((r) => `ckpt-b/${r.gateId}`),
    latent_effects: latentTable(ONLINE_SLOTS.flatMap((s) => s.versions)),
    interactions: [],
    average_marginal_effect_pooled: b.ame,
    expected_ols_pooled: b.olsPooled,
    expected_ols_per_gate: b.perGateOls,
    true_rewrite_winners: b.selection.winners,
    true_selection: b.selection.selected,
  };
}

function gateBTruth(a: CheckpointA, g: GateBOutcome): Record<string, unknown> {
  return {
    bare_dir: "gate-b/bare-test",
    equipped_dir: "gate-b/equipped-test",
    selected_skills: a.s0,
    selection_rule:
      "S_0 = Gate A's refit selection (gate_a.refit_selection.selected, in rank order), as gate analyze writes it to selection.json; gate compare --selection checks the equipped run against it",
    expected_bare_means: g.bareMeans,
    expected_equipped_means: g.equippedMeans,
    expected_difference: g.difference,
    true_top_k: {
      note:
        "for comparison only (not simulated): Gate A's true selection (gate_a.true_selection) equipped on the same test tasks",
      selected_skills: a.trueTopK,
      expected_equipped_means: g.trueTopKMeans,
      expected_difference: g.trueTopKDifference,
    },
  };
}

/**
 * The document of data/demo/truth.json (format `gatelab.demo-truth/v1`), key
 * order as written.
 */
export function demoTruth(facts: DemoTruthFacts): Record<string, unknown> {
  return {
    format: "gatelab.demo-truth/v1",
    generator: { tool: "gatelab", command: "deno task gen-demo" },
    latent_model: latentModel(),
    effect_definitions: {
      average_marginal_effect:
        "mean over the gate's rows of E[metric | slot set to the version] - E[metric | slot absent], other slots as drawn, rollout noise integrated out",
      expected_ols:
        "(X'X)^-1 X' mu with mu_i = E[masked_i] - E[bare_i] given task and mask: the value a refit estimates up to rollout noise",
    },
    seeds: { ...DEMO_SEEDS },
    gate_a: gateATruth(facts.a),
    online: onlineTruth(facts.b),
    gate_b: gateBTruth(facts.a, facts.g),
    infrastructure_failures: facts.failures,
    study: facts.study.truth,
    steps: facts.steps.truth,
  };
}
