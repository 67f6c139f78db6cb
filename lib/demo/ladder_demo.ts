/**
 * The demo's ladder gates (docs/FORMAT.md, Extensions: ladder gates): three
 * task types with known truth, simulated deterministically, written under
 * `data/demo/ladder/` (new files only; the rest of the demo is untouched).
 *
 * - `counting`: one question per unit, candidate truly better
 *   (P(correct) 0.45 base vs 0.75 candidate): the gate accepts.
 * - `temporal-order`: AR pairs (each unit asks a question in both
 *   directions and is right only when both are), candidate truly worse
 *   (0.85 vs 0.6 per direction): the gate rejects.
 * - `spatial-relation`: equal arms (0.6 and 0.6): the budget runs out.
 *
 * Every member fails as INFRA (stop_reason `error` or `parse_error`,
 * correct null) with probability 0.015. Each ladder stops at the exit the
 * e-processes reach (the rule of lib/ladder), and records it as
 * `decision`. `baseline.jsonl` is a seed baseline run of the base arm over
 * every unit of the three pools; `temporal-order`'s baseline ran with an
 * older skill text, so its cache keys miss.
 *
 * @module
 */
import { createPrng, type Prng } from "../math/prng.ts";
import { sha256Hex } from "../core/sha256.ts";
import { pairUnits } from "../ladder/pair_units.ts";
import { runLadder } from "../ladder/run_ladder.ts";
import type { Member, UnitLine } from "../ladder/schema.ts";

/** Truth of one demo task type. */
export interface LadderDemoType {
  readonly task_type: string;
  /** Members per unit: 1, or 2 for an AR pair. */
  readonly members: 1 | 2;
  /** P(correct) of one member, base and candidate arm. */
  readonly pBase: number;
  readonly pCand: number;
  readonly n_max: number;
  /** The exit the simulation reaches (checked by the demo test). */
  readonly expected: "accept" | "reject" | "budget_exhausted";
}

/** The three demo task types. */
export const LADDER_DEMO_TYPES: readonly LadderDemoType[] = [
  { task_type: "counting", members: 1, pBase: 0.45, pCand: 0.75, n_max: 64, expected: "accept" },
  {
    task_type: "temporal-order",
    members: 2,
    pBase: 0.85,
    pCand: 0.6,
    n_max: 64,
    expected: "reject",
  },
  {
    task_type: "spatial-relation",
    members: 1,
    pBase: 0.6,
    pCand: 0.6,
    n_max: 48,
    expected: "budget_exhausted",
  },
];

/** Shared parameters of the demo ladders. */
export const LADDER_DEMO = {
  seed: 20260716,
  alpha: 0.05,
  block_size: 8,
  infra_max_rate: 0.25,
  infra_rate: 0.015,
  prompts_version: "prompts-v1",
} as const;

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

function member(prng: Prng, questionId: string, p: number): Member {
  if (prng.nextFloat() < LADDER_DEMO.infra_rate) {
    return {
      question_id: questionId,
      correct: null,
      stop_reason: prng.nextFloat() < 0.5 ? "error" : "parse_error",
    };
  }
  return { question_id: questionId, correct: prng.nextFloat() < p, stop_reason: "stop" };
}

function questions(type: LadderDemoType, unit: number): string[] {
  const q = `${type.task_type}-q${String(unit).padStart(3, "0")}`;
  return type.members === 2 ? [`${q}-ab`, `${q}-ba`] : [q];
}

/**
 * Generates the files of `data/demo/ladder/` (paths relative to data/demo).
 *
 * @returns File path to contents.
 *
 * @example
 * ```ts
 * import { generateLadderDemo } from "./ladder_demo.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = generateLadderDemo();
 * deepEqual(JSON.parse(files["ladder/counting/ladder.json"]!).decision, "accept");
 * ```
 */
export function generateLadderDemo(): Record<string, string> {
  const prng = createPrng(LADDER_DEMO.seed);
  const files: Record<string, string> = {};
  const baseline: unknown[] = [];
  for (const type of LADDER_DEMO_TYPES) {
    const skill = (arm: string) =>
      `# ${type.task_type} (${arm})\n\nWork through the clip step by step before answering.\n`;
    const baseText = skill("base skill v1");
    const candText = skill("candidate skill v2");
    const oldText = skill("base skill v0");
    files[`ladder/skills/${type.task_type}.base.md`] = baseText;
    files[`ladder/skills/${type.task_type}.cand.md`] = candText;
    const baseSha = sha256Hex(new TextEncoder().encode(baseText));
    // Simulate blocks until the ladder's rule exits.
    const lines: UnitLine[] = [];
    const blocks = Math.ceil(type.n_max / LADDER_DEMO.block_size);
    let decision = null;
    for (let block = 0; block < blocks; block++) {
      const arms = block % 2 === 0 ? (["base", "cand"] as const) : (["cand", "base"] as const);
      for (const arm of arms) {
        for (let u = 0; u < LADDER_DEMO.block_size; u++) {
          const unit = block * LADDER_DEMO.block_size + u;
          const p = arm === "base" ? type.pBase : type.pCand;
          lines.push({
            block,
            unit_id: `${type.task_type}-u${String(unit).padStart(3, "0")}`,
            arm,
            members: questions(type, unit).map((q) => member(prng, q, p)),
            line: lines.length + 1,
          });
        }
      }
      const run = runLadder(
        { alpha: LADDER_DEMO.alpha, n_max: type.n_max, infra_max_rate: LADDER_DEMO.infra_max_rate },
        pairUnits(lines, "units.jsonl", LADDER_DEMO.block_size).pairs,
      );
      if (run.exit !== null) {
        decision = run.exit;
        break;
      }
    }
    files[`ladder/${type.task_type}/ladder.json`] = json({
      format: "gatelab.ladder/v1",
      task_type: type.task_type,
      alpha: LADDER_DEMO.alpha,
      n_max: type.n_max,
      block_size: LADDER_DEMO.block_size,
      infra_max_rate: LADDER_DEMO.infra_max_rate,
      prompts_version: LADDER_DEMO.prompts_version,
      base_skill_sha256: baseSha,
      cand_skill_sha256: sha256Hex(new TextEncoder().encode(candText)),
      decision,
    });
    files[`ladder/${type.task_type}/units.jsonl`] = jsonl(
      lines.map(({ line: _, ...rest }) => rest),
    );
    // The seed baseline: the base arm over the whole pool, run once before training.
    const baselineSha = type.task_type === "temporal-order"
      ? sha256Hex(new TextEncoder().encode(oldText))
      : baseSha;
    for (let unit = 0; unit < type.n_max; unit++) {
      const members = questions(type, unit).map((q) => member(prng, q, type.pBase));
      baseline.push({
        task_type: type.task_type,
        unit_id: `${type.task_type}-u${String(unit).padStart(3, "0")}`,
        skill_sha256: baselineSha,
        prompts_version: LADDER_DEMO.prompts_version,
        members,
      });
    }
  }
  files["ladder/baseline.jsonl"] = jsonl(baseline);
  return files;
}
