/**
 * The gold firewall's detectors over one deployable text: ASIN-shaped
 * tokens, task ids, gold product titles (whole or a long verbatim span
 * after normalisation) and other listed instance identifiers.
 *
 * @module
 */
import type { GoldItem } from "./gold.ts";

/** The firewall's conventions, recorded in firewall.json. */
export const FIREWALL_CONVENTIONS = {
  asin:
    "a token of B followed by nine upper-case letters or digits, at least one of them a digit, is ASIN-shaped and flagged whether or not it is a listed gold ASIN",
  task_id: "a listed task id as a whole token (not inside a longer id)",
  identifier: "a listed instance identifier as a whole token",
  title:
    "after normalisation (lower case; every run of characters other than letters and digits becomes one space), a run of at least 4 consecutive words of a gold title (the whole title when it has fewer words) with at least 16 characters",
  deployable:
    "chunk lines: `text`; failure cards (kind failure, or with privileged_audit or deployable_abstraction): every string under deployable_abstraction; success cards and other lines: every string of the line",
} as const;

/** Minimum words of a title span. */
export const TITLE_MIN_WORDS = 4;
/** Minimum characters of a title span (normalised). */
export const TITLE_MIN_CHARS = 16;

/** One finding in one text. */
export interface Finding {
  readonly code: "gold_asin" | "task_id_leak" | "title_leak" | "instance_identifier";
  /** The offending span as it appears (normalised for titles). */
  readonly span: string;
  /** The gold item it matches: task and what; null task for an unlisted ASIN-shaped token. */
  readonly gold: { readonly task_id: string | null; readonly kind: string; readonly value: string };
}

const ASIN = /(?<![A-Za-z0-9])B[0-9A-Z]{9}(?![A-Za-z0-9])/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const tokenRe = (s: string) =>
  new RegExp(`(?<![A-Za-z0-9_-])${escape(s)}(?![A-Za-z0-9_]|-[A-Za-z0-9])`);

/** Lower case, every run of non-alphanumerics one space, trimmed. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Longest run of consecutive title words that also occurs consecutively in the text. */
function longestCommonRun(title: readonly string[], text: readonly string[]): string[] {
  let best: string[] = [];
  for (let i = 0; i < title.length; i++) {
    for (let j = 0; j < text.length; j++) {
      let k = 0;
      while (i + k < title.length && j + k < text.length && title[i + k] === text[j + k]) k++;
      if (k > best.length) best = title.slice(i, i + k);
    }
  }
  return best;
}

/**
 * Scans one text for gold leaks.
 *
 * @param text A deployable text.
 * @param gold The gold items.
 * @returns Every finding (one per ASIN token, task id, identifier and matching title).
 *
 * @example
 * ```ts
 * import { scanText } from "./scan.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gold = [{ task_id: "ws-val-0042", asins: ["B08N5WRWNW"], titles: ["Lumina Ceramic Pour-Over Coffee Dripper"], identifiers: ["ord-5512"] }];
 * deepEqual(scanText("Open B08N5WRWNW, then B0C7KX21QZ.", gold).map((f) => [f.code, f.span, f.gold.task_id]), [
 *   ["gold_asin", "B08N5WRWNW", "ws-val-0042"], ["gold_asin", "B0C7KX21QZ", null],
 * ]);
 * deepEqual(scanText("prefer the LUMINA ceramic pour-over coffee mug", gold).map((f) => [f.code, f.span]), [
 *   ["title_leak", "lumina ceramic pour over coffee"],
 * ]);
 * deepEqual(scanText("Check task ws-val-0042 and ws-val-00421; order ord-5512.", gold).map((f) => f.code), ["task_id_leak", "instance_identifier"]);
 * deepEqual(scanText("Compare the price per unit before buying.", gold), []);
 * ```
 */
export function scanText(text: string, gold: readonly GoldItem[]): Finding[] {
  const findings: Finding[] = [];
  const asinOwner = new Map<string, string>();
  for (const g of gold) for (const a of g.asins) asinOwner.set(a, g.task_id);
  for (const m of text.matchAll(ASIN)) {
    const token = m[0];
    if (!/[0-9]/.test(token.slice(1))) continue;
    const owner = asinOwner.get(token) ?? null;
    findings.push({
      code: "gold_asin",
      span: token,
      gold: { task_id: owner, kind: owner === null ? "asin_shaped" : "gold_asin", value: token },
    });
  }
  for (const g of gold) {
    if (tokenRe(g.task_id).test(text)) {
      findings.push({
        code: "task_id_leak",
        span: g.task_id,
        gold: { task_id: g.task_id, kind: "task_id", value: g.task_id },
      });
    }
    for (const id of g.identifiers) {
      if (tokenRe(id).test(text)) {
        findings.push({
          code: "instance_identifier",
          span: id,
          gold: { task_id: g.task_id, kind: "identifier", value: id },
        });
      }
    }
  }
  const words = normalizeText(text).split(" ").filter((w) => w !== "");
  for (const g of gold) {
    for (const title of g.titles) {
      const titleWords = normalizeText(title).split(" ").filter((w) => w !== "");
      if (titleWords.length === 0) continue;
      const run = longestCommonRun(titleWords, words);
      const span = run.join(" ");
      if (
        run.length >= Math.min(TITLE_MIN_WORDS, titleWords.length) && span.length >= TITLE_MIN_CHARS
      ) {
        findings.push({
          code: "title_leak",
          span,
          gold: { task_id: g.task_id, kind: "product_title", value: title },
        });
      }
    }
  }
  return findings;
}

/** The deployable string fields of one line: [dotted path, text]. */
export function deployableFields(line: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") out.push([path, value]);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}.${i}`));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, path === "" ? k : `${path}.${k}`);
    }
  };
  const failure = line.kind === "failure" || "privileged_audit" in line ||
    "deployable_abstraction" in line;
  if (typeof line.text === "string" && !("kind" in line)) out.push(["text", line.text]);
  else if (failure) walk(line.deployable_abstraction, "deployable_abstraction");
  else walk(line, "");
  return out;
}
