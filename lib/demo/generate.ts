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
import { type GateSpec, type SimulatedGate, simulateGate } from "./gate.ts";
import type { LatentModel } from "./latent.ts";
import {
  DEMO_SEEDS,
  GATE_A_CHUNKS,
  GATE_A_INTERACTION,
  GATE_SETTINGS,
  ONLINE_SLOTS,
} from "./params.ts";
import { generateHistoryDemo } from "./history_demo.ts";
import { generateLadderDemo } from "./ladder_demo.ts";
import { demoReadme } from "./readme.ts";
import { DEMO_STUDY_FILE } from "./study_file.ts";
import { refitSelection } from "./refit.ts";
import { type RunSpec, type SimulatedRun, simulateRun } from "./run.ts";
import { simulateSteps } from "./steps.ts";
import { simulateStudy } from "./study.ts";
import {
  averageMarginalEffects,
  type EffectTable,
  expectedArmMeans,
  expectedOlsCoefficients,
  expectedProductCoefficient,
} from "./truth.ts";
import { type CheckpointA, type CheckpointB, demoTruth, type GateBOutcome } from "./truth_file.ts";
import { type DemoTask, drawTasks } from "./webshop.ts";

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

/** What the phases of the generator share: the files so far and the runs' failure record. */
interface DemoState {
  readonly files: Record<string, string>;
  /** Run dir to the episodes whose first attempt failed, in the order the runs are simulated. */
  readonly failures: Record<string, unknown>;
  /** Seed of the next run's infrastructure failures (one per run, in simulation order). */
  failureSeed: number;
  readonly valTasks: readonly DemoTask[];
  readonly testTasks: readonly DemoTask[];
  /** Every chunk text by version id (chunks.jsonl, token counts). */
  readonly texts: ReadonlyMap<string, string>;
}

/** The two online rounds at checkpoint B, sharing its bare run. */
const ONLINE_ROUNDS = [
  { gateId: "gate-online-r1", maskSeed: DEMO_SEEDS.maskOnlineR1, noiseSeed: DEMO_SEEDS.onlineR1 },
  { gateId: "gate-online-r2", maskSeed: DEMO_SEEDS.maskOnlineR2, noiseSeed: DEMO_SEEDS.onlineR2 },
] as const;

const NO_SKILLS = { bank: "NoSkills", selected_skills: [], max_skills: null };

function demoState(): DemoState {
  const texts = new Map<string, string>();
  for (const c of GATE_A_CHUNKS) texts.set(c.version_id, c.text);
  for (const s of ONLINE_SLOTS) for (const v of s.versions) texts.set(v.version_id, v.text);
  return {
    files: {},
    failures: {},
    failureSeed: DEMO_SEEDS.failures,
    valTasks: drawTasks("ws-val", GATE_SETTINGS.valTasks, createPrng(DEMO_SEEDS.valTasks)),
    testTasks: drawTasks("ws-test", GATE_SETTINGS.testTasks, createPrng(DEMO_SEEDS.testTasks)),
    texts,
  };
}

/** Simulates one run (taking the next failure seed) and records its files under `dir`. */
function addRun(
  state: DemoState,
  dir: string,
  spec: Omit<RunSpec, "failureSeed" | "textLength">,
): SimulatedRun {
  const run = simulateRun({
    ...spec,
    failureSeed: state.failureSeed++,
    textLength: (id) => state.texts.get(id)?.length ?? 0,
  });
  Object.assign(state.files, prefixed(dir, runFiles(run)));
  state.failures[dir] = run.failedEpisodes;
  return run;
}

/** Simulates one gate over a bare run in `../bare-val` and records its files under `dir`. */
function addGate(
  state: DemoState,
  dir: string,
  spec: Omit<GateSpec, "bareRunDir" | "pPresent" | "split" | "tasks" | "failureSeed">,
): SimulatedGate {
  const gate = simulateGate({
    ...spec,
    bareRunDir: "../bare-val",
    pPresent: GATE_SETTINGS.pPresent,
    split: "val",
    tasks: state.valTasks,
    failureSeed: state.failureSeed++,
  });
  Object.assign(state.files, prefixed(dir, gate.files));
  state.failures[dir] = gate.run.failedEpisodes;
  return gate;
}

/** Checkpoint A: bare val run, cold-start Gate A, its truth and S_0 (the product's own refit). */
function checkpointA(state: DemoState): CheckpointA {
  const model: LatentModel = {
    checkpoint: "ckpt-a",
    effects: new Map(GATE_A_CHUNKS.map((c) => [c.version_id, c.effect])),
    interactions: [{ versions: GATE_A_INTERACTION.versions, effect: GATE_A_INTERACTION.effect }],
  };
  const bare = addRun(state, "ckpt-a/bare-val", {
    runId: "ckpt-a-val-bare",
    arm: "bare",
    split: "val",
    checkpoint: "ckpt-a",
    tasks: state.valTasks,
    skill: NO_SKILLS,
    injected: () => [],
    model,
    noiseSeed: DEMO_SEEDS.bareA,
  });
  const gate = addGate(state, "ckpt-a/gate-a", {
    gateId: "gate-a",
    stage: "cold_start",
    maskSeed: DEMO_SEEDS.maskGateA,
    budgetK: GATE_SETTINGS.gateABudget,
    slots: GATE_A_CHUNKS.map((c) => ({
      slot_id: c.chunk_id,
      versions: [{ version_id: c.version_id, chunk_id: c.chunk_id, role: "add", text: c.text }],
    })),
    checkpoint: "ckpt-a",
    model,
    noiseSeed: DEMO_SEEDS.gateA,
  });
  const ame = averageMarginalEffects(gate.rows, gate.columns, model);
  const trueTopK = trueSelection(
    ame.reward!,
    GATE_A_CHUNKS.map((c) => ({ versions: [{ version_id: c.version_id, role: "add" }] })),
    GATE_SETTINGS.gateABudget,
  ).selected;
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
    assignments: gate.rows.map((r) => r.slots),
    taskIds: gate.rows.map((r) => r.task.task_id),
    split: "val",
    masked: { runId: "gate-a-masked", runDir: "ckpt-a/gate-a", run: gate.run },
  }, { runId: "ckpt-a-val-bare", runDir: "ckpt-a/bare-val", run: bare });
  return {
    model,
    ame,
    ols: expectedOlsCoefficients(gate.rows, gate.columns, model),
    interaction: expectedProductCoefficient(
      gate.rows,
      gate.columns,
      model,
      GATE_A_INTERACTION.versions,
    ),
    trueTopK,
    refit,
    s0: refit.selected,
  };
}

/** Checkpoint B: bare val run and two online gate rounds sharing it, with their truth. */
function checkpointB(state: DemoState): CheckpointB {
  const model: LatentModel = {
    checkpoint: "ckpt-b",
    effects: new Map(ONLINE_SLOTS.flatMap((s) => s.versions.map((v) => [v.version_id, v.effect]))),
    interactions: [],
  };
  const bare = addRun(state, "ckpt-b/bare-val", {
    runId: "ckpt-b-val-bare",
    arm: "bare",
    split: "val",
    checkpoint: "ckpt-b",
    tasks: state.valTasks,
    skill: NO_SKILLS,
    injected: () => [],
    model,
    noiseSeed: DEMO_SEEDS.bareB,
  });
  const slots = ONLINE_SLOTS.map((s) => ({ slot_id: s.slot_id, versions: s.versions }));
  const rounds = ONLINE_ROUNDS.map((round) => ({
    ...round,
    gate: addGate(state, `ckpt-b/${round.gateId}`, {
      gateId: round.gateId,
      stage: "online",
      maskSeed: round.maskSeed,
      budgetK: GATE_SETTINGS.onlineBudget,
      slots,
      checkpoint: "ckpt-b",
      model,
      noiseSeed: round.noiseSeed,
    }),
  }));
  const pooledRows = rounds.flatMap((r) => r.gate.rows);
  const columns = rounds[0]!.gate.columns;
  const ame = averageMarginalEffects(pooledRows, columns, model);
  const perGateOls: Record<string, EffectTable> = {};
  for (const r of rounds) {
    perGateOls[r.gateId] = expectedOlsCoefficients(r.gate.rows, r.gate.columns, model);
  }
  return {
    bare,
    rounds,
    ame,
    olsPooled: expectedOlsCoefficients(pooledRows, columns, model),
    perGateOls,
    selection: trueSelection(ame.reward!, ONLINE_SLOTS, GATE_SETTINGS.onlineBudget),
  };
}

/** Gate B: the held-out test pair on checkpoint A, equipped with the frozen selection S_0. */
function gateB(state: DemoState, a: CheckpointA): GateBOutcome {
  const pair = {
    split: "test",
    checkpoint: "ckpt-a" as const,
    tasks: state.testTasks,
    model: a.model,
  };
  addRun(state, "gate-b/bare-test", {
    ...pair,
    runId: "gate-b-test-bare",
    arm: "bare",
    skill: NO_SKILLS,
    injected: () => [],
    noiseSeed: DEMO_SEEDS.bareTest,
  });
  addRun(state, "gate-b/equipped-test", {
    ...pair,
    runId: "gate-b-test-equipped",
    arm: "equipped",
    skill: { bank: "JsonSkillBank", selected_skills: a.s0, max_skills: null },
    injected: () => a.s0,
    noiseSeed: DEMO_SEEDS.equippedTest,
  });
  const bareMeans = expectedArmMeans(state.testTasks, [], a.model);
  const differenceOf = (means: Record<string, number>) =>
    Object.fromEntries(
      Object.keys(bareMeans).map((m) => [m, Math.round((means[m]! - bareMeans[m]!) * 1e6) / 1e6]),
    );
  const equippedMeans = expectedArmMeans(state.testTasks, a.s0, a.model);
  const trueTopKMeans = expectedArmMeans(state.testTasks, a.trueTopK, a.model);
  return {
    bareMeans,
    equippedMeans,
    difference: differenceOf(equippedMeans),
    trueTopKMeans,
    trueTopKDifference: differenceOf(trueTopKMeans),
  };
}

/** Chunk texts, one JSON line each (their sha256 is gate.json's text_sha256). */
function chunkLines(texts: ReadonlyMap<string, string>): string {
  const lines = [...texts.entries()].map(([version_id, text]) =>
    JSON.stringify({ version_id, text, text_sha256: sha256Hex(encoder.encode(text)) })
  );
  return lines.join("\n") + "\n";
}

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
  const state = demoState();
  const { files } = state;
  const a = checkpointA(state);
  const b = checkpointB(state);
  const g = gateB(state, a);
  // Study and steps.
  const study = simulateStudy(DEMO_SEEDS.study);
  Object.assign(files, prefixed("study", study.files));
  const steps = simulateSteps(DEMO_SEEDS.steps);
  Object.assign(files, prefixed("steps", steps.files));
  files["chunks.jsonl"] = chunkLines(state.texts);
  const truth = demoTruth({ a, b, g, failures: state.failures, study, steps });
  files["truth.json"] = JSON.stringify(truth, null, 2) + "\n";
  files["gatelab.yaml"] = DEMO_STUDY_FILE;
  files["README.md"] = demoReadme({
    gateATrueSelection: a.trueTopK,
    gateARefitSelection: a.s0,
    gateBTrueTopKDifference: g.trueTopKDifference,
    onlineWinners: b.selection.winners,
    onlineSelection: b.selection.selected,
    gateBDifference: g.difference,
    gateAInteraction: a.interaction,
  });
  // Checkpoint C, the proposal ledger and the gold firewall inputs (new files only).
  Object.assign(
    files,
    generateHistoryDemo({
      valTasks: state.valTasks,
      bareB: b.bare,
      onlineGates: b.rounds.map((r) => ({ gateId: r.gateId, maskSeed: r.maskSeed, gate: r.gate })),
    }),
  );
  // Ladder gates with an e-process (new files under ladder/ only).
  Object.assign(files, generateLadderDemo());
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(files).sort()) sorted[key] = files[key]!;
  return sorted;
}
