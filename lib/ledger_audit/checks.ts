/**
 * Checks of the proposal ledger audit, each with its issue code.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import type { LedgerLine } from "./schema.ts";

/** Results that reject a candidate (a budget-excluded one had a positive estimate and may return). */
export const REJECTED_RESULTS = ["non_positive", "rewrite_loser"] as const;

/** What a validated candidate looked like in the gate analysis a ledger line cites. */
export interface CitedResult {
  readonly status: string;
  readonly estimate: number;
}

/** Options of {@linkcode ledgerIssues}. */
export interface LedgerChecksOptions {
  /** File name in issues. */
  readonly file: string;
  /**
   * Looks up the analysis a line cites (by proposal checkpoint and
   * candidate id): undefined when the checkpoint is not known (not
   * checked), null when the checkpoint is known but its gate has no such
   * version.
   */
  readonly cited?: (checkpoint: string, candidateId: string) => CitedResult | null | undefined;
  /**
   * Largest allowed difference between a ledger's estimated_effect and the
   * analysis (the ledger may round to four decimals).
   * @default {5e-5}
   */
  readonly effectTolerance?: number;
  /**
   * Most validation factors of one cold-start draft.
   * @default {16}
   */
  readonly dimensionCap?: number;
}

const norm = (s: string | null | undefined) =>
  typeof s === "string" ? s.trim().toLowerCase().replace(/\s+/g, " ") : "";

const isProposal = (e: LedgerLine) =>
  !(e.operation === null && (e.role === "current" || e.role === "old"));

/**
 * Audits parsed ledger lines (in file order):
 *
 * - `operation_invalid`: an operation other than ADD or REWRITE (DELETE,
 *   MERGE, SPLIT are not operations); null only on gatelab's lines for
 *   `current`/`old` versions;
 * - `rewrite_target_missing`: a REWRITE without target_chunk_id;
 * - `reproposed_rejected`: a proposal whose failure_mechanism (compared
 *   case- and whitespace-insensitively), consolidation_cluster_id or
 *   candidate_id equals that of an earlier line from another proposal
 *   checkpoint whose result was non_positive or rewrite_loser; names both
 *   lines;
 * - `ledger_result_mismatch`: validation_result or estimated_effect that
 *   disagrees with the cited analysis (`options.cited`);
 * - `dimension_cap`: a cold-start draft (lines of stage cold_start with one
 *   proposal checkpoint that reached validation) with more than 16
 *   distinct candidates.
 *
 * @param entries Parsed lines.
 * @param options File name, cited analyses, tolerances.
 * @returns Issues in line order (dimension_cap last).
 *
 * @example A re-proposal of a rejected mechanism, and a DELETE
 * ```ts
 * import { ledgerIssues } from "./checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = (line: number, candidate_id: string, operation: string, checkpoint: string, result: "selected" | "non_positive") => ({
 *   line, candidate_id, operation, target_chunk_id: null, failure_mechanism: "brand added to query",
 *   proposal_checkpoint: checkpoint, stage: "online" as const, consolidation_cluster_id: null,
 *   replacement_family_id: null, validation_result: result, estimated_effect: 0, contribution_rank: 1,
 * });
 * const issues = ledgerIssues([e(1, "b.v1", "ADD", "c1", "non_positive"), e(2, "b.v2", "ADD", "c2", "selected"), e(3, "x", "DELETE", "c2", "selected")], { file: "l.jsonl" });
 * // Line 3 is a DELETE (not an operation) and, with the same mechanism, a re-proposal too.
 * deepEqual(issues.map((i) => [i.code, i.line]), [
 *   ["reproposed_rejected", 2], ["operation_invalid", 3], ["reproposed_rejected", 3],
 * ]);
 * ```
 */
export function ledgerIssues(
  entries: readonly LedgerLine[],
  options: LedgerChecksOptions,
): Issue[] {
  const { file } = options;
  const issues: Issue[] = [];
  const rejected: LedgerLine[] = [];
  for (const e of entries) {
    const at = { file, line: e.line };
    issues.push(...operationIssues(e, at));
    if (isProposal(e)) {
      const earlier = reproposal(e, rejected, at);
      if (earlier !== null) issues.push(earlier);
    }
    issues.push(...citedIssues(e, at, options));
    if (
      isProposal(e) && (REJECTED_RESULTS as readonly string[]).includes(e.validation_result ?? "")
    ) {
      rejected.push(e);
    }
  }
  issues.push(...draftCapIssues(entries, file, options.dimensionCap ?? 16));
  return issues;
}

/** Where an issue of a ledger line is. */
type At = { readonly file: string; readonly line: number };

/** A line's operation: ADD or REWRITE for a proposal (REWRITE naming its target), null otherwise. */
function operationIssues(e: LedgerLine, at: At): Issue[] {
  const issues: Issue[] = [];
  if (e.operation === null) {
    if (isProposal(e)) {
      issues.push({
        ...at,
        code: "operation_invalid",
        path: "operation",
        message:
          `candidate ${e.candidate_id} has no operation; a proposal is ADD or REWRITE (null is only for a current or old version)`,
      });
    }
  } else if (e.operation !== "ADD" && e.operation !== "REWRITE") {
    issues.push({
      ...at,
      code: "operation_invalid",
      path: "operation",
      message:
        `candidate ${e.candidate_id} has operation ${e.operation}; only ADD and REWRITE are operations (DELETE, MERGE and SPLIT are not: retiring is the gate's job, restructuring is a REWRITE plus ADDs)`,
    });
  }
  if (e.operation === "REWRITE" && !(e.target_chunk_id ?? "").trim()) {
    issues.push({
      ...at,
      code: "rewrite_target_missing",
      path: "target_chunk_id",
      message: `REWRITE ${e.candidate_id} names no target_chunk_id; a rewrite replaces one chunk`,
    });
  }
  return issues;
}

/**
 * The first earlier rejected proposal of another checkpoint that this
 * proposal repeats (same failure mechanism, consolidation cluster or
 * candidate id), as a `reproposed_rejected` issue; null when none.
 */
function reproposal(e: LedgerLine, rejected: readonly LedgerLine[], at: At): Issue | null {
  for (const r of rejected) {
    if ((r.proposal_checkpoint ?? "") === (e.proposal_checkpoint ?? "")) continue;
    const same = [
      norm(r.failure_mechanism) !== "" &&
        norm(r.failure_mechanism) === norm(e.failure_mechanism)
        ? `failure_mechanism "${e.failure_mechanism}"`
        : null,
      (r.consolidation_cluster_id ?? "") !== "" &&
        r.consolidation_cluster_id === e.consolidation_cluster_id
        ? `consolidation cluster ${e.consolidation_cluster_id}`
        : null,
      r.candidate_id === e.candidate_id ? `candidate id ${e.candidate_id}` : null,
    ].filter((x) => x !== null);
    if (same.length === 0) continue;
    return {
      ...at,
      code: "reproposed_rejected",
      path: "candidate_id",
      message: `candidate ${e.candidate_id} (checkpoint ${e.proposal_checkpoint}) re-proposes ${
        same.join(" and ")
      } of line ${r.line} (candidate ${r.candidate_id}, checkpoint ${r.proposal_checkpoint}), rejected there as ${r.validation_result}`,
    };
  }
  return null;
}

/** A line's recorded result and effect against the analysis it cites (`options.cited`). */
function citedIssues(e: LedgerLine, at: At, options: LedgerChecksOptions): Issue[] {
  if (!options.cited || e.proposal_checkpoint === null || e.validation_result === null) return [];
  const tolerance = options.effectTolerance ?? 5e-5;
  const cited = options.cited(e.proposal_checkpoint, e.candidate_id);
  if (cited === null) {
    return [{
      ...at,
      code: "ledger_result_mismatch",
      path: "candidate_id",
      message:
        `candidate ${e.candidate_id} is not a version of the gate analysed at checkpoint ${e.proposal_checkpoint}`,
    }];
  }
  if (cited === undefined) return [];
  const issues: Issue[] = [];
  if (cited.status !== e.validation_result) {
    issues.push({
      ...at,
      code: "ledger_result_mismatch",
      path: "validation_result",
      message:
        `candidate ${e.candidate_id}: ledger says ${e.validation_result}, the analysis at ${e.proposal_checkpoint} says ${cited.status}`,
    });
  }
  if (
    e.estimated_effect !== null &&
    !(Math.abs(e.estimated_effect - cited.estimate) <= tolerance)
  ) {
    issues.push({
      ...at,
      code: "ledger_result_mismatch",
      path: "estimated_effect",
      message:
        `candidate ${e.candidate_id}: ledger estimated_effect ${e.estimated_effect}, the analysis at ${e.proposal_checkpoint} estimates ${cited.estimate} (tolerance ${tolerance})`,
    });
  }
  return issues;
}

/** Cold-start drafts that sent more candidates to validation than the dimension cap allows. */
function draftCapIssues(entries: readonly LedgerLine[], file: string, cap: number): Issue[] {
  const drafts = new Map<string, { ids: Set<string>; line: number }>();
  for (const e of entries) {
    if (e.stage !== "cold_start" || e.validation_result === null) continue;
    const key = e.proposal_checkpoint ?? "";
    if (!drafts.has(key)) drafts.set(key, { ids: new Set(), line: e.line });
    drafts.get(key)!.ids.add(e.candidate_id);
  }
  return [...drafts].filter(([, draft]) => draft.ids.size > cap).map(([checkpoint, draft]) => ({
    file,
    line: draft.line,
    code: "dimension_cap",
    path: "stage",
    message:
      `the cold-start draft at checkpoint ${checkpoint} sent ${draft.ids.size} candidates to validation; at most ${cap} validation factors are allowed`,
  }));
}
