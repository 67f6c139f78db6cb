/**
 * Simulation of step levels for reward recipes (docs/FORMAT.md section 4)
 * and the recipe comparison groups (Extensions: groups.jsonl).
 *
 * @module
 */
import { createPrng, type Prng } from "../math/prng.ts";
import { roundReward } from "./webshop.ts";

/** Simulated steps: files (relative to the steps dir) and their truth. */
export interface SimulatedSteps {
  readonly files: Record<string, string>;
  readonly truth: Record<string, unknown>;
}

type Verdict = "final" | "revoked" | "provisional" | undefined;

// Level distributions (levels 4, 3, 2, 1, 0, -1) of good and bad trajectories.
const LEVELS = [4, 3, 2, 1, 0, -1];
const GOOD = [0.25, 0.45, 0.18, 0.05, 0, 0.07];
const BAD = [0.04, 0.2, 0.3, 0.3, 0, 0.16];

function pick<T>(values: readonly T[], weights: readonly number[], prng: Prng): T {
  let u = prng.nextFloat() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < values.length; i++) {
    u -= weights[i]!;
    if (u < 0) return values[i]!;
  }
  return values[values.length - 1]!;
}

/**
 * Simulates 30 trajectories (15 good, 15 bad). Odd-numbered trajectories
 * and `traj-30` are in session mode (verdicts final, some revoked, provisional or
 * missing), the others legacy (no verdicts). Bad trajectories usually hold
 * a level-0 step (recipe B's penalty); one good session trajectory has a
 * revoked level-0 step (no penalty). Some steps are level -1, some are
 * backfilled at the end. `traj-30` has every step masked.
 *
 * @param seed Seed of the random stream.
 * @returns Files and truth.
 */
export function simulateSteps(seed: number): SimulatedSteps {
  const prng = createPrng(seed);
  const steps: string[] = [];
  const groups: string[] = [];
  const planted: Record<string, string[]> = {
    session_mode: [],
    legacy_mode: [],
    with_final_level0: [],
    with_revoked_level0: [],
    with_backfilled: [],
    all_masked: [],
  };
  for (let t = 1; t <= 30; t++) {
    const id = `traj-${String(t).padStart(2, "0")}`;
    const good = t <= 15;
    const session = t % 2 === 1 || t === 30; // traj-30: session mode, all masked
    (session ? planted.session_mode : planted.legacy_mode)!.push(id);
    const n = 4 + prng.nextInt(9);
    const rows: { level: number; source: string; verdict: Verdict }[] = [];
    for (let o = 0; o < n; o++) {
      const level = pick(LEVELS, good ? GOOD : BAD, prng);
      const verdict: Verdict = session
        ? pick<Verdict>(
          ["final", "revoked", "provisional", undefined],
          [0.82, 0.07, 0.06, 0.05],
          prng,
        )
        : undefined;
      rows.push({ level, source: "declared", verdict });
    }
    if (t === 30) {
      // Every step masked: verdict reasons and level -1 only.
      const verdicts: Verdict[] = ["revoked", "provisional", undefined, "final"];
      rows.forEach((r, o) => {
        r.verdict = verdicts[o % 4];
        if (r.verdict === "final") r.level = -1;
      });
      planted.all_masked!.push(id);
    } else if (!good && prng.nextFloat() < 0.75) {
      const o = prng.nextInt(n);
      rows[o]!.level = 0;
      if (session) rows[o]!.verdict = "final";
      planted.with_final_level0!.push(id);
    } else if (t === 3) {
      rows[1]!.level = 0;
      rows[1]!.verdict = "revoked";
      planted.with_revoked_level0!.push(id);
    }
    if (t !== 30 && prng.nextFloat() < 0.3) {
      const extra = 1 + prng.nextInt(2);
      for (let e = 0; e < extra; e++) {
        rows.push({
          level: pick(LEVELS, good ? GOOD : BAD, prng),
          source: "backfilled",
          verdict: session ? "final" : undefined,
        });
      }
      planted.with_backfilled!.push(id);
    }
    rows.forEach((r, order) => {
      const line: Record<string, unknown> = {
        trajectory_id: id,
        order,
        level: r.level,
        source: r.source,
      };
      if (r.verdict !== undefined) line.verdict = r.verdict;
      steps.push(JSON.stringify(line));
    });
    const reference = roundReward(
      Math.min(1, Math.max(0, (good ? 0.78 : 0.32) + 0.12 * (prng.nextFloat() * 2 - 1))),
      2,
    );
    groups.push(JSON.stringify({ trajectory_id: id, group: good ? "good" : "bad", reference }));
  }
  return {
    files: { "steps.jsonl": steps.join("\n") + "\n", "groups.jsonl": groups.join("\n") + "\n" },
    truth: {
      seed,
      level_distribution: { levels: LEVELS, good: GOOD, bad: BAD },
      reference: "good ~ U(0.66, 0.90), bad ~ U(0.20, 0.44), two decimals",
      ...planted,
    },
  };
}
