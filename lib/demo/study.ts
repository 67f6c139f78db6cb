/**
 * Simulation of evaluation outcomes for paper tables (docs/FORMAT.md
 * section 3): study.json, slots.jsonl and attempts.jsonl with planted
 * infrastructure retries, model failures and ambiguous slots.
 *
 * @module
 */
import { createPrng, type Prng } from "../math/prng.ts";
import { STUDY_SETTINGS } from "./params.ts";
import { normalDraw, roundReward } from "./webshop.ts";

/** A simulated study: files (relative to the study dir) and its truth. */
export interface SimulatedStudy {
  readonly files: Record<string, string>;
  readonly truth: Record<string, unknown>;
}

const REPOS = [
  "django__django",
  "sympy__sympy",
  "scikit-learn__scikit-learn",
  "psf__requests",
  "pylint-dev__pylint",
  "pydata__xarray",
  "sphinx-doc__sphinx",
  "matplotlib__matplotlib",
  "pytest-dev__pytest",
  "astropy__astropy",
];

function taskIds(n: number, prng: Prng): string[] {
  const ids = new Set<string>();
  while (ids.size < n) {
    ids.add(`${REPOS[prng.nextInt(REPOS.length)]}-${1000 + prng.nextInt(24000)}`);
  }
  return [...ids].sort();
}

type Event = "verifier_infra" | "generation_infra" | "model_failure" | "ambiguous";

const REASONS: Record<Event, string> = {
  verifier_infra: "verifier container exited before writing the grading report",
  generation_infra: "inference server connection reset before the trajectory completed",
  model_failure: "agent exhausted its context budget without producing a patch",
  ambiguous: "reward file missing while verifier stdout exists; attribution unclear",
};

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Simulates the study: three arms, three training seeds, 40 tasks x 4 reps.
 * A slot's resolution probability is `sigmoid(arm + task + seed)` with the
 * task difficulty shared by all arms. Planted events (counts in
 * {@linkcode STUDY_SETTINGS}) are spread over distinct slots; every
 * infrastructure failure is followed by exactly the one allowed retry,
 * which yields a report.
 *
 * @param seed Seed of the study's random stream.
 * @returns Files and truth.
 */
export function simulateStudy(seed: number): SimulatedStudy {
  const prng = createPrng(seed);
  const s = STUDY_SETTINGS;
  const tasks = taskIds(s.tasks, prng);
  const taskEffect = tasks.map(() => s.taskSd * normalDraw(prng));
  const seedCommon = s.trainSeeds.map(() => s.seedSd * normalDraw(prng));
  const seedArm = new Map<string, number>();
  for (const arm of s.arms) {
    s.trainSeeds.forEach((ts, k) =>
      seedArm.set(`${arm}/${ts}`, seedCommon[k]! + 0.6 * s.seedSd * normalDraw(prng))
    );
  }

  const slots: { arm: string; train_seed: number; task_id: string; rep: number; p: number }[] = [];
  for (const arm of s.arms) {
    for (const ts of s.trainSeeds) {
      tasks.forEach((task_id, t) => {
        const p = sigmoid(s.armLogit[arm]! + taskEffect[t]! + seedArm.get(`${arm}/${ts}`)!);
        for (let rep = 0; rep < s.reps; rep++) slots.push({ arm, train_seed: ts, task_id, rep, p });
      });
    }
  }

  const events = new Map<number, Event>();
  const plant = (kind: Event, count: number, eligible: (i: number) => boolean) => {
    let placed = 0;
    while (placed < count) {
      const i = prng.nextInt(slots.length);
      if (events.has(i) || !eligible(i)) continue;
      events.set(i, kind);
      placed++;
    }
  };
  plant("ambiguous", s.ambiguous, (i) => slots[i]!.arm === s.ambiguousArm);
  plant("verifier_infra", s.verifierInfra, () => true);
  plant("generation_infra", s.generationInfra, () => true);
  plant("model_failure", s.modelFailure, () => true);

  const attempts: string[] = [];
  const cost = () => ({
    gpu_hours: roundReward(0.08 + 0.3 * prng.nextFloat()),
    tokens: 20000 + prng.nextInt(60000),
  });
  const report = (slot: (typeof slots)[number], attempt: number, c = cost()) => {
    const resolved = prng.nextFloat() < slot.p ? 1 : 0;
    return { ...key(slot), attempt, kind: "report", resolved, ...c };
  };
  const key = (slot: (typeof slots)[number]) => ({
    arm: slot.arm,
    train_seed: slot.train_seed,
    task_id: slot.task_id,
    rep: slot.rep,
  });
  const plantedList: Record<string, unknown>[] = [];
  slots.forEach((slot, i) => {
    const event = events.get(i);
    const lines: Record<string, unknown>[] = [];
    if (event === undefined) {
      lines.push(report(slot, 0));
    } else {
      plantedList.push({ ...key(slot), kind: event });
      const first = { ...key(slot), attempt: 0, kind: event, reason: REASONS[event] };
      if (event === "verifier_infra") {
        lines.push({ ...first, ...cost() });
        lines.push(report(slot, 1, { gpu_hours: 0, tokens: 0 })); // re-verification: no generation
      } else if (event === "generation_infra") {
        const partial = cost();
        lines.push({
          ...first,
          gpu_hours: roundReward(partial.gpu_hours / 3),
          tokens: Math.floor(partial.tokens / 3),
        });
        lines.push(report(slot, 1));
      } else {
        lines.push({ ...first, ...cost() });
      }
    }
    for (const l of lines) attempts.push(JSON.stringify(l));
  });

  const armTruth: Record<string, number> = {};
  for (const arm of s.arms) {
    const ps = slots.filter((x) => x.arm === arm).map((x) => x.p);
    armTruth[arm] = Math.round((ps.reduce((a, b) => a + b, 0) / ps.length) * 1e6) / 1e6;
  }
  const plan = {
    format: "gatelab.studyplan/v1",
    comparisons: s.comparisons.map((c) => [...c]),
    bootstrap: { draws: s.bootstrap.draws, seed: s.bootstrap.seed },
  };
  return {
    files: {
      "study.json": JSON.stringify(plan, null, 2) + "\n",
      "slots.jsonl": slots.map((x) => JSON.stringify(key(x))).join("\n") + "\n",
      "attempts.jsonl": attempts.join("\n") + "\n",
    },
    truth: {
      seed,
      model:
        "resolved ~ Bernoulli(sigmoid(arm_logit + task_effect + seed_effect)); task effect shared by arms",
      arm_logit: { ...s.armLogit },
      task_sd: s.taskSd,
      seed_sd: s.seedSd,
      expected_resolution: armTruth,
      planted_events: plantedList,
      incomplete_comparisons: s.comparisons.filter((c) =>
        (c as readonly string[]).includes(s.ambiguousArm)
      ).map((c) => [...c]),
    },
  };
}
