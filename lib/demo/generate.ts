/**
 * The whole demo study as file texts: checkpoint A's bare val run and
 * cold-start Gate A, checkpoint B's bare val run and two online gate rounds,
 * Gate B's held-out test pair, a study for paper tables, step levels for
 * reward recipes, and truth.json with the known effects.
 *
 * @module
 */
import { createPrng } from "../math/prng.ts";
import { sha256Hex } from "../core/sha256.ts";
import { simulateGate } from "./gate.ts";
import type { LatentModel } from "./latent.ts";
import {
  DEMO_NOISE,
  DEMO_SEEDS,
  GATE_A_CHUNKS,
  GATE_A_INTERACTION,
  GATE_SETTINGS,
  LATENT_COMPONENTS,
  type LatentEffect,
  ONLINE_SLOTS,
  REWARD_DECIMALS,
} from "./params.ts";
import { generateHistoryDemo } from "./history_demo.ts";
import { generateLadderDemo } from "./ladder_demo.ts";
import { demoReadme } from "./readme.ts";
import { DEMO_STUDY_FILE } from "./study_file.ts";
import { refitSelection } from "./refit.ts";
import { type SimulatedRun, simulateRun } from "./run.ts";
import { simulateSteps } from "./steps.ts";
import { simulateStudy } from "./study.ts";
import {
  averageMarginalEffects,
  type EffectTable,
  expectedArmMeans,
  expectedOlsCoefficients,
  expectedProductCoefficient,
} from "./truth.ts";
import { drawTasks } from "./webshop.ts";

const encoder = new TextEncoder();

function prefixed(dir: string, files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) out[`${dir}/${name}`] = text;
  return out;
}

function runFiles(run: SimulatedRun): Record<string, string> {
  return { "manifest.json": run.manifest, "traces.jsonl": run.traces, "summary.json": run.summary };
}

/**
 * Positive top-K by a true effect, rewrite families first reduced to their
 * best version (ties keep the old one), as the gate's selection rule does.
 */
function trueSelection(
  effects: Readonly<Record<string, number>>,
  families: readonly { versions: readonly { version_id: string; role: string }[] }[],
  budget: number,
): { winners: string[]; selected: string[] } {
  const pool: string[] = [];
  const winners: string[] = [];
  for (const slot of families) {
    if (slot.versions.length === 1) {
      pool.push(slot.versions[0]!.version_id);
      continue;
    }
    let best = slot.versions.find((v) => v.role === "old")!.version_id;
    for (const v of slot.versions) if (effects[v.version_id]! > effects[best]!) best = v.version_id;
    winners.push(best);
    pool.push(best);
  }
  const selected = pool.filter((id) => effects[id]! > 0).sort((a, b) => effects[b]! - effects[a]!)
    .slice(0, budget);
  return { winners, selected };
}

const latentTable = (versions: readonly { version_id: string; effect: LatentEffect }[]) =>
  Object.fromEntries(versions.map((v) => [v.version_id, [...v.effect]]));

/**
 * Generates every file of `data/demo/` as text, keyed by its path relative
 * to `data/demo/`. Pure and deterministic: seeded streams only, stable key
 * order, `\n` line ends.
 *
 * @returns Path to file text, paths in sorted order.
 *
 * @example
 * ```ts
 * import { generateDemo } from "./generate.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const files = generateDemo();
 * ok("ckpt-a/gate-a/gate.json" in files);
 * const gate = JSON.parse(files["ckpt-a/gate-a/gate.json"]!);
 * deepEqual(gate.slots.length, 14);
 * deepEqual(gate.bare_run_dir, "../bare-val");
 * ```
 */
export function generateDemo(): Record<string, string> {
  const files: Record<string, string> = {};
  const valTasks = drawTasks("ws-val", GATE_SETTINGS.valTasks, createPrng(DEMO_SEEDS.valTasks));
  const testTasks = drawTasks("ws-test", GATE_SETTINGS.testTasks, createPrng(DEMO_SEEDS.testTasks));
  const failures: Record<string, unknown> = {};
  let failureSeed = DEMO_SEEDS.failures;
  const noSkills = { bank: "NoSkills", selected_skills: [], max_skills: null };
  const texts = new Map<string, string>();
  for (const c of GATE_A_CHUNKS) texts.set(c.version_id, c.text);
  for (const s of ONLINE_SLOTS) for (const v of s.versions) texts.set(v.version_id, v.text);
  const textLength = (id: string) => texts.get(id)?.length ?? 0;

  // Checkpoint A: bare val run and cold-start Gate A.
  const modelA: LatentModel = {
    checkpoint: "ckpt-a",
    effects: new Map(GATE_A_CHUNKS.map((c) => [c.version_id, c.effect])),
    interactions: [{ versions: GATE_A_INTERACTION.versions, effect: GATE_A_INTERACTION.effect }],
  };
  const bareA = simulateRun({
    runId: "ckpt-a-val-bare",
    arm: "bare",
    split: "val",
    checkpoint: "ckpt-a",
    tasks: valTasks,
    skill: noSkills,
    injected: () => [],
    model: modelA,
    noiseSeed: DEMO_SEEDS.bareA,
    failureSeed: failureSeed++,
    textLength,
  });
  Object.assign(files, prefixed("ckpt-a/bare-val", runFiles(bareA)));
  failures["ckpt-a/bare-val"] = bareA.failedEpisodes;
  const gateA = simulateGate({
    gateId: "gate-a",
    stage: "cold_start",
    bareRunDir: "../bare-val",
    maskSeed: DEMO_SEEDS.maskGateA,
    pPresent: GATE_SETTINGS.pPresent,
    budgetK: GATE_SETTINGS.gateABudget,
    slots: GATE_A_CHUNKS.map((c) => ({
      slot_id: c.chunk_id,
      versions: [{ version_id: c.version_id, chunk_id: c.chunk_id, role: "add", text: c.text }],
    })),
    split: "val",
    checkpoint: "ckpt-a",
    tasks: valTasks,
    model: modelA,
    noiseSeed: DEMO_SEEDS.gateA,
    failureSeed: failureSeed++,
  });
  Object.assign(files, prefixed("ckpt-a/gate-a", gateA.files));
  failures["ckpt-a/gate-a"] = gateA.run.failedEpisodes;
  const gateAAme = averageMarginalEffects(gateA.rows, gateA.columns, modelA);
  const gateAOls = expectedOlsCoefficients(gateA.rows, gateA.columns, modelA);
  const gateAInteraction = expectedProductCoefficient(
    gateA.rows,
    gateA.columns,
    modelA,
    GATE_A_INTERACTION.versions,
  );
  const gateASelection = trueSelection(
    gateAAme.reward!,
    GATE_A_CHUNKS.map((c) => ({ versions: [{ version_id: c.version_id, role: "add" }] })),
    GATE_SETTINGS.gateABudget,
  );
  const trueTopK = gateASelection.selected;
  // S_0 as the product computes it: gate analyze's refit of the simulated
  // Gate A (paired-delta no-intercept OLS on reward, positive top budget_k).
  const refit = refitSelection({
    gateId: "gate-a",
    gateDir: "ckpt-a/gate-a",
    stage: "cold_start",
    budgetK: GATE_SETTINGS.gateABudget,
    maskSeed: DEMO_SEEDS.maskGateA,
    pPresent: GATE_SETTINGS.pPresent,
    slots: GATE_A_CHUNKS.map((c) => ({
      slot_id: c.chunk_id,
      versions: [{ version_id: c.version_id, chunk_id: c.chunk_id, role: "add" as const }],
    })),
    assignments: gateA.rows.map((r) => r.slots),
    taskIds: gateA.rows.map((r) => r.task.task_id),
    split: "val",
    masked: { runId: "gate-a-masked", runDir: "ckpt-a/gate-a", run: gateA.run },
  }, { runId: "ckpt-a-val-bare", runDir: "ckpt-a/bare-val", run: bareA });
  const s0 = refit.selected;

  // Checkpoint B: bare val run and two online gate rounds sharing it.
  const modelB: LatentModel = {
    checkpoint: "ckpt-b",
    effects: new Map(ONLINE_SLOTS.flatMap((s) => s.versions.map((v) => [v.version_id, v.effect]))),
    interactions: [],
  };
  const bareB = simulateRun({
    runId: "ckpt-b-val-bare",
    arm: "bare",
    split: "val",
    checkpoint: "ckpt-b",
    tasks: valTasks,
    skill: noSkills,
    injected: () => [],
    model: modelB,
    noiseSeed: DEMO_SEEDS.bareB,
    failureSeed: failureSeed++,
    textLength,
  });
  Object.assign(files, prefixed("ckpt-b/bare-val", runFiles(bareB)));
  failures["ckpt-b/bare-val"] = bareB.failedEpisodes;
  const onlineSlots = ONLINE_SLOTS.map((s) => ({ slot_id: s.slot_id, versions: s.versions }));
  const rounds = [
    ["gate-online-r1", DEMO_SEEDS.maskOnlineR1, DEMO_SEEDS.onlineR1],
    ["gate-online-r2", DEMO_SEEDS.maskOnlineR2, DEMO_SEEDS.onlineR2],
  ] as const;
  const onlineGates = rounds.map(([gateId, maskSeed, noiseSeed]) => {
    const gate = simulateGate({
      gateId,
      stage: "online",
      bareRunDir: "../bare-val",
      maskSeed,
      pPresent: GATE_SETTINGS.pPresent,
      budgetK: GATE_SETTINGS.onlineBudget,
      slots: onlineSlots,
      split: "val",
      checkpoint: "ckpt-b",
      tasks: valTasks,
      model: modelB,
      noiseSeed,
      failureSeed: failureSeed++,
    });
    Object.assign(files, prefixed(`ckpt-b/${gateId}`, gate.files));
    failures[`ckpt-b/${gateId}`] = gate.run.failedEpisodes;
    return gate;
  });
  const pooledRows = onlineGates.flatMap((g) => g.rows);
  const onlineColumns = onlineGates[0]!.columns;
  const onlineAme = averageMarginalEffects(pooledRows, onlineColumns, modelB);
  const onlineSelection = trueSelection(
    onlineAme.reward!,
    ONLINE_SLOTS,
    GATE_SETTINGS.onlineBudget,
  );
  const perGateOls: Record<string, EffectTable> = {};
  onlineGates.forEach((g, i) => {
    perGateOls[rounds[i]![0]] = expectedOlsCoefficients(g.rows, g.columns, modelB);
  });

  // Gate B: held-out test pair on checkpoint A, equipped with the frozen selection.
  const bareTest = simulateRun({
    runId: "gate-b-test-bare",
    arm: "bare",
    split: "test",
    checkpoint: "ckpt-a",
    tasks: testTasks,
    skill: noSkills,
    injected: () => [],
    model: modelA,
    noiseSeed: DEMO_SEEDS.bareTest,
    failureSeed: failureSeed++,
    textLength,
  });
  const equippedTest = simulateRun({
    runId: "gate-b-test-equipped",
    arm: "equipped",
    split: "test",
    checkpoint: "ckpt-a",
    tasks: testTasks,
    skill: { bank: "JsonSkillBank", selected_skills: s0, max_skills: null },
    injected: () => s0,
    model: modelA,
    noiseSeed: DEMO_SEEDS.equippedTest,
    failureSeed: failureSeed++,
    textLength,
  });
  Object.assign(files, prefixed("gate-b/bare-test", runFiles(bareTest)));
  Object.assign(files, prefixed("gate-b/equipped-test", runFiles(equippedTest)));
  failures["gate-b/bare-test"] = bareTest.failedEpisodes;
  failures["gate-b/equipped-test"] = equippedTest.failedEpisodes;
  const bareMeans = expectedArmMeans(testTasks, [], modelA);
  const equippedMeans = expectedArmMeans(testTasks, s0, modelA);
  const differenceOf = (means: Record<string, number>) =>
    Object.fromEntries(
      Object.keys(bareMeans).map((m) => [m, Math.round((means[m]! - bareMeans[m]!) * 1e6) / 1e6]),
    );
  const gateBDifference = differenceOf(equippedMeans);
  const trueTopKMeans = expectedArmMeans(testTasks, trueTopK, modelA);

  // Study and steps.
  const study = simulateStudy(DEMO_SEEDS.study);
  Object.assign(files, prefixed("study", study.files));
  const steps = simulateSteps(DEMO_SEEDS.steps);
  Object.assign(files, prefixed("steps", steps.files));

  // Chunk texts (their sha256 is gate.json's text_sha256).
  const chunkLines = [...texts.entries()].map(([version_id, text]) =>
    JSON.stringify({ version_id, text, text_sha256: sha256Hex(encoder.encode(text)) })
  );
  files["chunks.jsonl"] = chunkLines.join("\n") + "\n";

  const truth = {
    format: "gatelab.demo-truth/v1",
    generator: { tool: "gatelab", command: "deno task gen-demo" },
    latent_model: {
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
    },
    effect_definitions: {
      average_marginal_effect:
        "mean over the gate's rows of E[metric | slot set to the version] - E[metric | slot absent], other slots as drawn, rollout noise integrated out",
      expected_ols:
        "(X'X)^-1 X' mu with mu_i = E[masked_i] - E[bare_i] given task and mask: the value a refit estimates up to rollout noise",
    },
    seeds: { ...DEMO_SEEDS },
    gate_a: {
      gate_dir: "ckpt-a/gate-a",
      latent_effects: latentTable(GATE_A_CHUNKS),
      interaction: {
        versions: [...GATE_A_INTERACTION.versions],
        latent_effect: [...GATE_A_INTERACTION.effect],
        note:
          "functional substitution: either inspection chunk alone helps a lot; with both the agent re-opens and re-compares the same items, so together they add far less than the sum of their main effects (less than either alone)",
        expected_product_coefficient: gateAInteraction,
        expected_product_coefficient_definition:
          "coefficient of the product column C_a C_b added to the paired-delta no-intercept OLS, (Z'Z)^-1 Z' mu with Z = [X, C_a C_b]: what the interaction screen estimates for this pair up to rollout noise",
      },
      average_marginal_effect: gateAAme,
      expected_ols: gateAOls,
      truly_positive: GATE_A_CHUNKS.map((c) => c.version_id).filter((id) =>
        gateAAme.reward![id]! > 0
      ),
      true_selection: trueTopK,
      refit_selection: {
        rule:
          "gate analyze on the simulated files: paired-delta no-intercept OLS on reward, strictly positive top budget_k (10) by coefficient; this is S_0, the skill Gate B injects",
        selected: s0,
        reward_coefficients: Object.fromEntries(
          Object.entries(refit.coefficients).map(([id, b]) => [id, Math.round(b * 1e6) / 1e6]),
        ),
        budget_k: refit.budgetK,
      },
    },
    online: {
      gate_dirs: rounds.map(([g]) => `ckpt-b/${g}`),
      latent_effects: latentTable(ONLINE_SLOTS.flatMap((s) => s.versions)),
      interactions: [],
      average_marginal_effect_pooled: onlineAme,
      expected_ols_pooled: expectedOlsCoefficients(pooledRows, onlineColumns, modelB),
      expected_ols_per_gate: perGateOls,
      true_rewrite_winners: onlineSelection.winners,
      true_selection: onlineSelection.selected,
    },
    gate_b: {
      bare_dir: "gate-b/bare-test",
      equipped_dir: "gate-b/equipped-test",
      selected_skills: s0,
      selection_rule:
        "S_0 = Gate A's refit selection (gate_a.refit_selection.selected, in rank order), as gate analyze writes it to selection.json; gate compare --selection checks the equipped run against it",
      expected_bare_means: bareMeans,
      expected_equipped_means: equippedMeans,
      expected_difference: gateBDifference,
      true_top_k: {
        note:
          "for comparison only (not simulated): Gate A's true selection (gate_a.true_selection) equipped on the same test tasks",
        selected_skills: trueTopK,
        expected_equipped_means: trueTopKMeans,
        expected_difference: differenceOf(trueTopKMeans),
      },
    },
    infrastructure_failures: failures,
    study: study.truth,
    steps: steps.truth,
  };
  files["truth.json"] = JSON.stringify(truth, null, 2) + "\n";
  files["gatelab.yaml"] = DEMO_STUDY_FILE;
  files["README.md"] = demoReadme({
    gateATrueSelection: trueTopK,
    gateARefitSelection: s0,
    gateBTrueTopKDifference: differenceOf(trueTopKMeans),
    onlineWinners: onlineSelection.winners,
    onlineSelection: onlineSelection.selected,
    gateBDifference: gateBDifference,
    gateAInteraction,
  });

  // Checkpoint C, the proposal ledger and the gold firewall inputs (new files only).
  Object.assign(
    files,
    generateHistoryDemo({
      valTasks,
      bareB,
      onlineGates: onlineGates.map((gate, i) => ({
        gateId: rounds[i]![0],
        maskSeed: rounds[i]![1],
        gate,
      })),
    }),
  );

  // Ladder gates with an e-process (new files under ladder/ only).
  Object.assign(files, generateLadderDemo());

  const sorted: Record<string, string> = {};
  for (const key of Object.keys(files).sort()) sorted[key] = files[key]!;
  return sorted;
}
