/**
 * `gate ledger-audit` as a library call: read the ledger (and a gate
 * history to check its results against), run the proposal rules, and build
 * validation.json and, when the ledger is clean, ledger_audit.json.
 *
 * @module
 */
import { join } from "node:path";
import type { z } from "npm:zod@4.6.7";
import {
  type HistoryJson,
  HistorySchema,
  type LedgerAuditSchema,
  readOutput,
} from "../contract/outputs/mod.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import type { Issue } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import { validationDocument } from "../core/validation_document.ts";
import type { Checked } from "../validate/checked.ts";
import { readHashedJsonl } from "../load/hashed_jsonl.ts";
import { type CitedResult, ledgerIssues } from "./checks.ts";
import { type LedgerLine, LedgerLineSchema } from "./schema.ts";

/** ledger_audit.json as `gate ledger-audit` writes it (its schema is lib/contract's `LedgerAuditSchema`). */
export type LedgerAuditDocument = z.input<typeof LedgerAuditSchema>;

/** The status and estimate history.json records for a version at a checkpoint (null: not there). */
export type CitedLookup = (checkpoint: string, id: string) => CitedResult | null | undefined;

/**
 * What {@linkcode ledgerAudit} found: a refusal (bad input or any issue), or
 * the clean audit's documents and the parsed lines (its tidy table).
 */
export type LedgerAudit = Checked<{
  readonly document: LedgerAuditDocument;
  readonly entries: readonly LedgerLine[];
}>;

/** What the clean audit records about how it judged (ledger_audit.json's `conventions`). */
const CONVENTIONS = {
  rejected: "validation_result non_positive or rewrite_loser",
  reproposal:
    "a proposal from another proposal checkpoint with the same failure_mechanism (case and whitespace ignored), consolidation_cluster_id or candidate_id as an earlier rejected line",
  effect_tolerance: 5e-5,
  dimension_cap: 16,
} as const;

/**
 * Audits a proposal ledger: every line against the ledger schema, then (when
 * all lines parse and the history reads) the proposal rules, with
 * `ledger_result_mismatch` against `history` (a `gate history` output
 * directory) when given.
 *
 * @param file The ledger (JSONL).
 * @param options `history`: directory with history.json; `command`: the command line recorded.
 * @returns The refusal's or the clean audit's documents.
 */
export async function ledgerAudit(
  file: string,
  options: { readonly history?: string | undefined; readonly command: string },
): Promise<LedgerAudit> {
  const { command } = options;
  const issues: Issue[] = [];
  const entries: LedgerLine[] = [];
  const read = await readHashedJsonl(file, (value, line) => {
    const parsed = parseWithSchema(LedgerLineSchema, value, { file, line });
    if (parsed.ok) entries.push({ ...parsed.value, line });
    else issues.push(...parsed.issues);
  });
  issues.push(...read.issues);
  const ledger = { file, sha256: read.sha256 };
  const inputs: unknown[] = [ledger];
  let cited: CitedLookup | undefined;
  if (options.history !== undefined) {
    const path = join(options.history, "history.json");
    const history = await readOutput(path, HistorySchema);
    if (!history.ok) issues.push(...history.issues);
    else if (history.output === null) {
      issues.push({
        code: "io_error",
        message: "cannot read history.json: no such file",
        file: path,
      });
    } else {
      inputs.push({ history: path });
      cited = historyLookup(history.output.value);
    }
  }
  if (issues.length === 0) {
    issues.push(...ledgerIssues(entries, { file, ...(cited ? { cited } : {}) }));
  }
  const validation = validationDocument(issues, command, inputs);
  if (!validation.ok) return { ok: false, validation };
  const document: LedgerAuditDocument = {
    format: "gatelab.ledger-audit/v1",
    ledger,
    history: options.history ?? null,
    lines: entries.length,
    proposals: entries.filter((e) => e.operation !== null).length,
    checks: [
      "schema_error",
      "operation_invalid",
      "rewrite_target_missing",
      "reproposed_rejected",
      "dimension_cap",
      ...(cited ? ["ledger_result_mismatch"] : []),
    ],
    conventions: CONVENTIONS,
    generator: generatorMeta(command),
  };
  return { ok: true, validation, document, entries };
}

/**
 * checkpoint_id -> version_id -> the status and estimate history.json
 * records for it: undefined for a checkpoint the history does not hold,
 * null for a version it does not hold at that checkpoint.
 *
 * @param history Parsed history.json.
 * @returns The lookup.
 */
export function historyLookup(history: HistoryJson): CitedLookup {
  const byCheckpoint = new Map<string, Map<string, CitedResult>>();
  const stepCheckpoint = new Map<number, string>();
  for (const s of history.steps) {
    if (s.checkpoint_id === null) continue;
    stepCheckpoint.set(s.step, s.checkpoint_id);
    if (!byCheckpoint.has(s.checkpoint_id)) byCheckpoint.set(s.checkpoint_id, new Map());
  }
  for (const entries of Object.values(history.chunks)) {
    for (const e of entries) {
      if (e === null) continue;
      const versions = byCheckpoint.get(stepCheckpoint.get(e.step) ?? "");
      if (!versions) continue;
      versions.set(e.version_id, { status: e.status, estimate: e.estimate });
      for (const o of e.others) {
        versions.set(o.version_id, { status: o.status, estimate: o.estimate });
      }
    }
  }
  return (checkpoint, id) => {
    const versions = byCheckpoint.get(checkpoint);
    if (!versions) return undefined;
    return versions.get(id) ?? null;
  };
}
