/**
 * A ladder gate re-analysed: pairing, the decision and, with a baseline,
 * what a prefilled baseline cache would have saved; the contents of
 * `ladder_result.json`. No I/O.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import type { LadderResultJson } from "../contract/outputs/ladder.ts";
import { generatorMeta } from "../core/meta.ts";
import { pairUnits } from "./pair_units.ts";
import { prefillSummary } from "./prefill.ts";
import { runLadder } from "./run_ladder.ts";
import type { BaselineLine, LadderSpec, UnitLine } from "./schema.ts";

/**
 * ladder_result.json (docs/FORMAT.md, Extensions: ladder gates): the type
 * its zod schema, `LadderResultSchema`, gives, so the writer, the table,
 * the figure and the report read one declaration.
 */
export type LadderResultDocument = LadderResultJson;

/** Conventions recorded in every ladder_result.json. */
export const LADDER_CONVENTIONS: Readonly<Record<string, string>> = {
  unit:
    "one member, or two for an AR pair folded by AND over both directions; INFRA when any member " +
    "stopped with error or parse_error or has correct null",
  outcome:
    "W candidate right and base wrong, L candidate wrong and base right, E equal, INFRA either arm " +
    "INFRA (excluded from W/L/E, counted in units)",
  e_accept: "KT mixture (Beta(1/2,1/2)) restricted to theta >= 1/2 over discordant units against " +
    "P(W | discordant) <= 1/2: 2^(W+L) B(W+1/2, L+1/2) (1 - I_{1/2}(W+1/2, L+1/2)) / (B(1/2,1/2)/2)",
  e_reject:
    "the mirror mixture restricted to theta <= 1/2: 2^(W+L) B(W+1/2, L+1/2) I_{1/2}(W+1/2, L+1/2) / (B(1/2,1/2)/2)",
  exits:
    "after each block, in order: infra_abort (INFRA/units > infra_max_rate), accept (e_accept >= 1/alpha), " +
    "reject (e_reject >= 1/alpha), budget_exhausted (units >= n_max); blocks after the exit are ignored",
  counts:
    "cumulative; pairs sorted by (block, unit_id), so the order the arms finished in does not matter",
  prefill:
    "cache key task_type|base_skill_sha256|prompts_version|unit_id; INFRA baseline units never enter; " +
    "saved counts base-arm inferences (members) of served units up to the exit block",
};

/**
 * Re-analyses a ladder gate.
 *
 * @param spec ladder.json.
 * @param units The unit lines in file order.
 * @param options `baseline` lines for the prefill summary, `unitsFile` and
 *   `specFile` for issue locations, `inputs` and `command` to record.
 * @returns The document (null when the units have issues) and the issues,
 *   including `decision_mismatch` when ladder.json records another decision.
 */
export function ladderResult(
  spec: LadderSpec,
  units: readonly UnitLine[],
  options: {
    readonly baseline?: readonly BaselineLine[] | null;
    readonly unitsFile?: string;
    readonly specFile?: string;
    readonly inputs?: readonly unknown[];
    readonly command?: string;
  } = {},
): { document: LadderResultDocument | null; issues: Issue[] } {
  const { pairs, issues } = pairUnits(units, options.unitsFile ?? "units.jsonl", spec.block_size);
  if (issues.length > 0) return { document: null, issues };
  const run = runLadder(spec, pairs);
  const recorded = spec.decision ?? null;
  if (recorded !== null && recorded !== run.exit) {
    const c = run.counts;
    issues.push({
      code: "decision_mismatch",
      message: `ladder.json records ${recorded}, but the units give ${run.exit ?? "no exit"}${
        run.exit_block === null ? "" : ` at block ${run.exit_block}`
      } (W ${c.W}, L ${c.L}, E ${c.E}, INFRA ${c.INFRA})`,
      file: options.specFile ?? "ladder.json",
      path: "decision",
    });
  }
  const baseArm = units.filter((u) =>
    u.arm === "base" && (run.exit_block === null || u.block <= run.exit_block)
  );
  return {
    document: {
      format: "gatelab.ladder-result/v1",
      task_type: spec.task_type,
      alpha: spec.alpha,
      threshold: 1 / spec.alpha,
      n_max: spec.n_max,
      block_size: spec.block_size,
      infra_max_rate: spec.infra_max_rate,
      prompts_version: spec.prompts_version,
      base_skill_sha256: spec.base_skill_sha256,
      cand_skill_sha256: spec.cand_skill_sha256,
      exit: run.exit,
      exit_block: run.exit_block,
      counts: run.counts,
      blocks: run.blocks,
      blocks_after_exit: run.blocks_after_exit,
      recorded_decision: recorded,
      prefill: options.baseline ? prefillSummary(options.baseline, baseArm, spec) : null,
      conventions: LADDER_CONVENTIONS,
      inputs: options.inputs ?? [],
      generator: generatorMeta(options.command ?? "ladder"),
    },
    issues,
  };
}
