/**
 * `gate firewall` as a library call: read the gold items and the
 * deployable texts, scan every deployable field, and build validation.json
 * and, when nothing was found, firewall.json.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { FirewallSchema } from "../contract/outputs/mod.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { type Issue, IssueList } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import { validationDocument } from "../core/validation_document.ts";
import type { Checked } from "../validate/checked.ts";
import { readHashedJsonl } from "../load/hashed_jsonl.ts";
import { type GoldItem, goldItem, GoldItemSchema } from "./gold.ts";
import { deployableFields, type Finding, FIREWALL_CONVENTIONS, scanText } from "./scan.ts";

/** firewall.json as `gate firewall` writes it (its schema is lib/contract's `FirewallSchema`). */
export type FirewallDocument = z.input<typeof FirewallSchema>;

/** One input of the audit as validation.json and firewall.json record it. */
export interface FirewallInput {
  /** The file as given on the command line. */
  readonly file: string;
  /** `gold`: the gold items (`--gold`); `texts`: a deployable-text file (`--texts`). */
  readonly kind: "gold" | "texts";
  /** sha256 of the file's bytes; null when it could not be read. */
  readonly sha256: string | null;
}

/** One line of a deployable-text file. */
export interface TextLine {
  /** The file it was read from. */
  readonly file: string;
  /** Its one-based line number. */
  readonly line: number;
  /** The parsed JSON object (a chunk or a card). */
  readonly value: Record<string, unknown>;
}

/** A finding as validation.json lists it: the issue, the span and the gold it matches. */
export type FirewallFinding = Issue & {
  readonly span: string;
  readonly gold: Finding["gold"];
};

/**
 * What {@linkcode firewallAudit} found: a refusal (bad input or any finding,
 * every finding listed), or the clean audit's two documents.
 */
export type FirewallAudit = Checked<{ readonly document: FirewallDocument }>;

/**
 * Every finding in the deployable fields of `lines` against `gold`, in
 * line, field and detector order, and the number of fields scanned.
 *
 * @example
 * ```ts
 * import { firewallScan } from "./audit.ts";
 * import { goldItem } from "./gold.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gold = [goldItem({ task_id: "t1", gold_asin: "B000000001", product_title: "Blue Kettle" })];
 * const { findings, fields } = firewallScan(
 *   [{ file: "chunks.jsonl", line: 2, value: { chunk_id: "c", text: "buy B000000001" } }], gold);
 * deepEqual([fields, findings.map((f) => `${f.code} ${f.file}:${f.line} ${f.path} ${f.span}`)],
 *   [1, ["gold_asin chunks.jsonl:2 text B000000001"]]);
 * ```
 */
export function firewallScan(
  lines: readonly TextLine[],
  gold: readonly GoldItem[],
): { findings: FirewallFinding[]; fields: number } {
  const findings: FirewallFinding[] = [];
  let fields = 0;
  for (const { file, line, value } of lines) {
    for (const [path, text] of deployableFields(value)) {
      fields++;
      for (const f of scanText(text, gold)) {
        const what = f.gold.task_id === null
          ? "an ASIN-shaped token (instance-specific even though it is not in the gold file)"
          : `${f.gold.kind} of task ${f.gold.task_id} ("${f.gold.value}")`;
        findings.push({
          code: f.code,
          message: `deployable text holds "${f.span}", which matches ${what}`,
          file,
          line,
          path,
          span: f.span,
          gold: f.gold,
        });
      }
    }
  }
  return { findings, fields };
}

/**
 * Runs the gold firewall audit: reads `goldFile` (gold items, checked
 * against their schema) and every file of `texts`, then scans every
 * deployable field. Unreadable or invalid input refuses before the scan;
 * any finding refuses with every finding listed (no per-code cap).
 *
 * @param goldFile gold.jsonl.
 * @param texts The chunks or cards JSONL files.
 * @param command The command line the documents record.
 * @returns The refusal's or the clean audit's documents.
 */
export async function firewallAudit(
  goldFile: string,
  texts: readonly string[],
  command: string,
): Promise<FirewallAudit> {
  const input = new IssueList();
  const inputs: FirewallInput[] = [];
  const read = async (
    file: string,
    kind: FirewallInput["kind"],
    visit: (v: Record<string, unknown>, line: number) => void,
  ) => {
    const { issues, sha256 } = await readHashedJsonl(file, visit);
    input.addAll(issues);
    inputs.push({ file, kind, sha256 });
  };
  const gold: GoldItem[] = [];
  await read(goldFile, "gold", (value, line) => {
    const parsed = parseWithSchema(GoldItemSchema, value, { file: goldFile, line });
    if (parsed.ok) gold.push(goldItem(parsed.value));
    else input.addAll(parsed.issues);
  });
  const lines: TextLine[] = [];
  for (const file of texts) {
    await read(file, "texts", (value, line) => lines.push({ file, line, value }));
  }
  if (!input.ok) return { ok: false, validation: validationDocument(input, command, inputs) };
  const { findings, fields } = firewallScan(lines, gold);
  // Every finding is listed: no per-code cap.
  const listed = new IssueList({ capPerCode: Number.MAX_SAFE_INTEGER });
  listed.addAll(findings);
  const validation = validationDocument(listed, command, inputs);
  if (!validation.ok) return { ok: false, validation };
  const document: FirewallDocument = {
    format: "gatelab.firewall/v1",
    ok: true,
    scanned: { files: texts.length, lines: lines.length, fields, gold_items: gold.length },
    findings: [],
    conventions: FIREWALL_CONVENTIONS,
    inputs,
    generator: generatorMeta(command),
  };
  return { ok: true, validation, document };
}
