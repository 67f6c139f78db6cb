/**
 * Pairs a ladder gate's arms unit by unit and checks the units file:
 * W (candidate right, base wrong), L (candidate wrong, base right), E
 * (equal) or INFRA (either arm INFRA).
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { foldUnit } from "./fold_unit.ts";
import type { UnitLine } from "./schema.ts";

/** The outcome of one paired unit. */
export type UnitOutcome = "W" | "L" | "E" | "INFRA";

/** One unit with both arms. */
export interface PairedUnit {
  readonly block: number;
  readonly unit_id: string;
  readonly outcome: UnitOutcome;
  readonly base: UnitLine;
  readonly cand: UnitLine;
}

/**
 * The outcome of a unit from its two arms' folded verdicts.
 *
 * @example
 * ```ts
 * import { unitOutcome } from "./pair_units.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([unitOutcome(false, true), unitOutcome(true, false), unitOutcome(true, true), unitOutcome("INFRA", true)], ["W", "L", "E", "INFRA"]);
 * ```
 */
export function unitOutcome(base: boolean | "INFRA", cand: boolean | "INFRA"): UnitOutcome {
  if (base === "INFRA" || cand === "INFRA") return "INFRA";
  if (cand === base) return "E";
  return cand ? "W" : "L";
}

/**
 * Checks the lines of units.jsonl and pairs them. Issues (each with file
 * and line): `duplicate_unit` (a second line for the same block, unit_id
 * and arm), `block_order` (a block number smaller than the line before),
 * `unit_unpaired` (members in one arm and none in the other),
 * `member_mismatch` (the arms answered different questions),
 * `block_overflow` (more units in one arm of a block than `blockSize`).
 * Pairs come sorted by (block, unit_id), so the arms' order in the file
 * never matters.
 *
 * @param lines Parsed lines in file order.
 * @param file The file name for issues.
 * @param blockSize Most units per arm in one block.
 * @returns The pairs (only meaningful without issues) and the issues.
 *
 * @example
 * ```ts
 * import { pairUnits } from "./pair_units.ts";
 * import { deepEqual } from "node:assert/strict";
 * const m = [{ question_id: "q1", correct: true, stop_reason: "stop" }];
 * const lines = [
 *   { block: 0, unit_id: "u1", arm: "cand" as const, members: m, line: 1 },
 *   { block: 0, unit_id: "u1", arm: "base" as const, members: [{ ...m[0]!, correct: false }], line: 2 },
 *   { block: 0, unit_id: "u2", arm: "base" as const, members: m, line: 3 },
 * ];
 * const r = pairUnits(lines, "units.jsonl", 8);
 * deepEqual([r.pairs.map((p) => p.outcome), r.issues.map((i) => [i.code, i.line])], [["W"], [["unit_unpaired", 3]]]);
 * ```
 */
export function pairUnits(
  lines: readonly UnitLine[],
  file: string,
  blockSize: number,
): { pairs: PairedUnit[]; issues: Issue[] } {
  const issues: Issue[] = [];
  const byKey = new Map<string, { base?: UnitLine; cand?: UnitLine }>();
  const perArmBlock = new Map<string, number>();
  let previousBlock = -Infinity;
  for (const l of lines) {
    if (l.block < previousBlock) {
      issues.push({
        code: "block_order",
        message:
          `block ${l.block} comes after block ${previousBlock}; blocks must not go backwards`,
        file,
        line: l.line,
        path: "block",
      });
    }
    previousBlock = Math.max(previousBlock, l.block);
    const key = `${l.block}\u0000${l.unit_id}`;
    const entry = byKey.get(key) ?? {};
    const earlier = entry[l.arm];
    if (earlier) {
      issues.push({
        code: "duplicate_unit",
        message:
          `unit ${l.unit_id} of block ${l.block} already has a ${l.arm} line (line ${earlier.line})`,
        file,
        line: l.line,
        path: "unit_id",
      });
      continue;
    }
    entry[l.arm] = l;
    byKey.set(key, entry);
    const armKey = `${l.block}\u0000${l.arm}`;
    const count = (perArmBlock.get(armKey) ?? 0) + 1;
    perArmBlock.set(armKey, count);
    if (count === blockSize + 1) {
      issues.push({
        code: "block_overflow",
        message: `block ${l.block} has more than block_size ${blockSize} units in the ${l.arm} arm`,
        file,
        line: l.line,
        path: "block",
      });
    }
  }
  const pairs: PairedUnit[] = [];
  for (const { base, cand } of byKey.values()) {
    if (!base || !cand) {
      const only = (base ?? cand)!;
      issues.push({
        code: "unit_unpaired",
        message:
          `unit ${only.unit_id} of block ${only.block} has members in the ${only.arm} arm and none in the ${
            only.arm === "base" ? "cand" : "base"
          } arm`,
        file,
        line: only.line,
        path: "unit_id",
      });
      continue;
    }
    const questions = (l: UnitLine) => l.members.map((m) => m.question_id).sort().join("\u0000");
    if (questions(base) !== questions(cand)) {
      issues.push({
        code: "member_mismatch",
        message:
          `unit ${base.unit_id} of block ${base.block}: the arms answered different questions (base line ${base.line})`,
        file,
        line: cand.line,
        path: "members",
      });
      continue;
    }
    pairs.push({
      block: base.block,
      unit_id: base.unit_id,
      outcome: unitOutcome(foldUnit(base.members), foldUnit(cand.members)),
      base,
      cand,
    });
  }
  pairs.sort((a, b) =>
    a.block - b.block || (a.unit_id < b.unit_id ? -1 : a.unit_id > b.unit_id ? 1 : 0)
  );
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { pairs, issues };
}
