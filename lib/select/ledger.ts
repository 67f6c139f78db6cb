/**
 * The proposal ledger (docs/analysis.md, "Proposal ledger"): one JSONL line per version and
 * analysis, keyed so that re-running the same analysis replaces its lines
 * instead of duplicating them.
 *
 * @module
 */

import type { DesignColumn } from "../core/types.ts";
import type { SelectionDecision, SelectionStatus } from "./select.ts";

/** One ledger line. */
export interface LedgerEntry {
  readonly format: "gatelab.ledger/v1";
  /** `gate_ids|version_id|baseline_sha256|metric|budget_k`: the dedup key. */
  readonly key: string;
  readonly candidate_id: string;
  /** ADD for role add, REWRITE for role new; null for current and old versions (not proposals). */
  readonly operation: "ADD" | "REWRITE" | null;
  readonly role: DesignColumn["role"];
  readonly chunk_id: string;
  /** For a REWRITE: the chunk_id of the slot's old version; otherwise null. */
  readonly target_chunk_id: string | null;
  /** The slot_id of a REWRITE family (old and new versions); otherwise null. */
  readonly replacement_family_id: string | null;
  readonly stage: "cold_start" | "online";
  /** checkpoint_id of the frozen checkpoint the gate validated on. */
  readonly proposal_checkpoint: string | null;
  readonly gate_ids: readonly string[];
  readonly baseline_sha256: string;
  readonly metric: string;
  readonly budget_k: number;
  readonly exploratory: boolean;
  /** The status, or `retired` for a current/old version that was not selected. */
  readonly validation_result: SelectionStatus | "retired";
  readonly status: SelectionStatus;
  readonly estimated_effect: number;
  readonly contribution_rank: number | null;
}

/** What a ledger line needs besides the decisions. */
export interface LedgerContext {
  readonly gateIds: readonly string[];
  readonly stage: "cold_start" | "online";
  readonly baselineSha256: string;
  readonly metric: string;
  readonly budgetK: number;
  readonly exploratory: boolean;
  readonly proposalCheckpoint: string | null;
}

/**
 * Builds one ledger entry per decision.
 *
 * @param columns The design columns (for chunk ids and families).
 * @param decisions The selection decisions, one per column.
 * @param context Gate, baseline, metric and budget.
 * @returns The entries in column order.
 *
 * @example
 * ```ts
 * import { ledgerEntries } from "./ledger.ts";
 * import { deepEqual } from "node:assert/strict";
 * const columns = [
 *   { version_id: "s@old", slot_id: "s", chunk_id: "c-old", role: "old" as const },
 *   { version_id: "s@new", slot_id: "s", chunk_id: "c-new", role: "new" as const },
 * ];
 * const decisions = [
 *   { slot_id: "s", version_id: "s@old", role: "old" as const, alpha: 0.1, rank: null, status: "rewrite_loser" as const, retired: true },
 *   { slot_id: "s", version_id: "s@new", role: "new" as const, alpha: 0.2, rank: 1, status: "selected" as const, retired: false },
 * ];
 * const e = ledgerEntries(columns, decisions, { gateIds: ["g"], stage: "online", baselineSha256: "ab", metric: "reward", budgetK: 4, exploratory: false, proposalCheckpoint: "ckpt" });
 * deepEqual(e.map((x) => [x.operation, x.target_chunk_id, x.validation_result]), [[null, null, "retired"], ["REWRITE", "c-old", "selected"]]);
 * ```
 */
export function ledgerEntries(
  columns: readonly DesignColumn[],
  decisions: readonly SelectionDecision[],
  context: LedgerContext,
): LedgerEntry[] {
  const byId = new Map(columns.map((c) => [c.version_id, c]));
  const oldChunk = new Map<string, string>();
  for (const c of columns) if (c.role === "old") oldChunk.set(c.slot_id, c.chunk_id);
  const familySlots = new Set(
    columns.filter((c) => c.role === "old" || c.role === "new").map((c) => c.slot_id),
  );
  return decisions.map((d): LedgerEntry => {
    const column = byId.get(d.version_id);
    if (!column) throw new RangeError(`Cannot write ledger: unknown version ${d.version_id}`);
    return {
      format: "gatelab.ledger/v1",
      key: [
        context.gateIds.join("+"),
        d.version_id,
        context.baselineSha256,
        context.metric,
        context.budgetK,
      ]
        .join("|"),
      candidate_id: d.version_id,
      operation: d.role === "add" ? "ADD" : d.role === "new" ? "REWRITE" : null,
      role: d.role,
      chunk_id: column.chunk_id,
      target_chunk_id: d.role === "new" ? oldChunk.get(d.slot_id) ?? null : null,
      replacement_family_id: familySlots.has(d.slot_id) ? d.slot_id : null,
      stage: context.stage,
      proposal_checkpoint: context.proposalCheckpoint,
      gate_ids: context.gateIds,
      baseline_sha256: context.baselineSha256,
      metric: context.metric,
      budget_k: context.budgetK,
      exploratory: context.exploratory,
      validation_result: d.retired ? "retired" : d.status,
      status: d.status,
      estimated_effect: d.alpha,
      contribution_rank: d.rank,
    };
  });
}

/**
 * Merges new entries into existing ledger text: lines whose `key` equals a
 * new entry's key are dropped, every other line is kept as is (in order),
 * and the new entries are appended. Re-running an analysis therefore
 * replaces its lines instead of duplicating them.
 *
 * @param existing Current ledger text ("" when none).
 * @param entries New entries.
 * @returns The new ledger text (JSONL, final newline).
 * @throws {SyntaxError} When a non-blank existing line is not JSON (the ledger is never silently rewritten).
 *
 * @example
 * ```ts
 * import { mergeLedger } from "./ledger.ts";
 * import { deepEqual } from "node:assert/strict";
 * // deno-lint-ignore no-explicit-any
 * const e = [{ key: "g|a|h|reward|2", candidate_id: "a" }] as any;
 * const once = mergeLedger("", e);
 * deepEqual(mergeLedger(once, e), once);
 * ```
 */
export function mergeLedger(existing: string, entries: readonly LedgerEntry[]): string {
  const fresh = new Set(entries.map((e) => e.key));
  const kept: string[] = [];
  existing.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: { key?: unknown };
    try {
      value = JSON.parse(line);
    } catch {
      throw new SyntaxError(`Cannot update ledger: line ${i + 1} is not valid JSON`);
    }
    if (typeof value.key === "string" && fresh.has(value.key)) return;
    kept.push(line);
  });
  return [...kept, ...entries.map((e) => JSON.stringify(e))].join("\n") + "\n";
}
