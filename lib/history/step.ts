/**
 * One step of a training history: the gate (or pooled rounds sharing one
 * bare run) analysed at one checkpoint, reduced to what `gate history`
 * needs: the versions with their text hashes, the decisions of the
 * selection rule and every version's coefficient with its interval.
 *
 * @module
 */
import type { Role } from "../core/types.ts";
import type { SelectionStatus } from "../select/select.ts";

/** How a step's interval was obtained. */
export type IntervalKind = "bootstrap" | "hc3_normal" | "cr1_normal";

/** One version of one step. */
export interface StepVersion {
  readonly version_id: string;
  readonly slot_id: string;
  readonly chunk_id: string;
  readonly role: Role;
  /** From gate.json; null when the plan gives none or could not be read. */
  readonly text_sha256: string | null;
  readonly estimate: number;
  /** Standard error behind the interval (bootstrap, HC3 or CR1), null when undefined. */
  readonly se: number | null;
  readonly ci_lower: number | null;
  readonly ci_upper: number | null;
  readonly interval: IntervalKind;
  readonly status: SelectionStatus;
  readonly rank: number | null;
  /** A `current` or `old` version that was not selected. */
  readonly retired: boolean;
}

/** One step of the history. */
export interface HistoryStep {
  /** 1-based position in training order. */
  readonly step: number;
  readonly gate_ids: readonly string[];
  /** Gate directories of the step, as given or as recorded by the analysis. */
  readonly gate_dirs: readonly string[];
  /** gate.json of each gate (for issue locations). */
  readonly plan_files: readonly string[];
  readonly checkpoint_id: string | null;
  readonly stage: "cold_start" | "online";
  readonly metric: string;
  readonly budget_k: number;
  readonly baseline_sha256: string;
  /** Where the numbers came from: an analysis directory, or gates analysed now. */
  readonly source: { readonly kind: "analysis" | "gates"; readonly dirs: readonly string[] };
  readonly bootstrap: { readonly draws: number; readonly seed: number } | null;
  /** Selected version ids in rank order. */
  readonly selected: readonly string[];
  /** One per design column, in column order. */
  readonly versions: readonly StepVersion[];
}
