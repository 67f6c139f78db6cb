/**
 * Problems as data. Every check in gatelab reports an {@linkcode Issue}
 * with a stable `code` and the place of the bad value (file, line, field
 * path, episode), and collects all of them before failing.
 *
 * @module
 */

/** Validation codes of the data contract (docs/FORMAT.md section 5). */
export const CONTRACT_CODES = [
  "parse_error",
  "schema_error",
  "bare_not_skill_free",
  "coverage_incomplete",
  "unplanned_episode",
  "duplicate_completed",
  "provenance_mismatch",
  "seed_mismatch",
  "injection_mismatch",
  "reward_incomplete",
  "reward_not_strict",
  "assignment_invalid",
  "family_invalid",
  "dimension_cap",
  "budget_invalid",
  "not_identifiable",
] as const;

/**
 * Codes gatelab adds compatibly to the contract's list (see docs/FORMAT.md,
 * "Extensions"). They never replace a contract code.
 */
export const EXTENSION_CODES = [
  "io_error",
  "usage_error",
  "retry_policy_violation",
  "comparison_invalid",
  "baseline_changed",
  "plan_invalid",
  // an output file read back (gate report, plan-power --from, gate history) that does not match its schema
  "output_schema_mismatch",
  // gate history (docs/FORMAT.md, Extensions: history)
  "lineage_mismatch",
  "version_reused",
  // gate ledger-audit
  "operation_invalid",
  "rewrite_target_missing",
  "reproposed_rejected",
  "ledger_result_mismatch",
  // gate firewall
  "gold_asin",
  "task_id_leak",
  "title_leak",
  "instance_identifier",
  // strict input reading and the run cache
  "reward_out_of_range",
  "cache_corrupt",
  "cache_unwritable",
  // a warning: a check that could not be made because a field was not recorded (gate import)
  "provenance_unrecorded",
  // gate ladder (docs/FORMAT.md, Extensions: ladder gates)
  "arm_unknown",
  "unit_unpaired",
  "duplicate_unit",
  "block_order",
  "block_overflow",
  "member_mismatch",
  "decision_mismatch",
  // gate build's study file (docs/FORMAT.md, Extensions: the study file)
  "input_missing",
  "input_ambiguous",
  "duplicate_id",
  "dependency_cycle",
] as const;

/** A stable issue code. */
export type IssueCode =
  | (typeof CONTRACT_CODES)[number]
  | (typeof EXTENSION_CODES)[number];

/** One problem found in the input, as plain data. */
export interface Issue {
  /** Stable code; see {@linkcode CONTRACT_CODES} and {@linkcode EXTENSION_CODES}. */
  readonly code: IssueCode;
  /** Human-readable explanation: what is wrong, then why it matters. */
  readonly message: string;
  /** File the problem was found in, as given by the user. */
  readonly file?: string;
  /** One-based line number in a JSONL file. */
  readonly line?: number;
  /** Dotted field path inside the JSON value, e.g. `provenance.sampling.temperature`. */
  readonly path?: string;
  /** Episode key `split/task_id/sample_id` the problem concerns. */
  readonly episode?: string;
  /**
   * `warning` for an issue a command was told to record without failing
   * (e.g. `gate history --allow-lineage-gaps`); absent means an error.
   */
  readonly severity?: "warning";
}

/** Options of {@linkcode IssueList}. */
export interface IssueListOptions {
  /**
   * How many issues of one code are kept; further ones are only counted
   * and summarised in one extra issue.
   * @default {50}
   */
  readonly capPerCode?: number;
}

/**
 * Collects issues, keeping at most `capPerCode` of each code and counting
 * the rest.
 *
 * @example Cap repeats of one code
 * ```ts
 * import { IssueList } from "./issue.ts";
 * import { deepEqual } from "node:assert/strict";
 * const list = new IssueList({ capPerCode: 2 });
 * for (let i = 1; i <= 5; i++) {
 *   list.add({ code: "parse_error", message: "bad JSON", file: "t.jsonl", line: i });
 * }
 * deepEqual(list.count, 5);
 * deepEqual(list.toArray().length, 3); // two kept, one summary
 * deepEqual(list.counts(), { parse_error: 5 });
 * ```
 *
 * @example Warnings past the cap stay warnings
 * ```ts
 * import { IssueList } from "./issue.ts";
 * import { deepEqual } from "node:assert/strict";
 * const list = new IssueList({ capPerCode: 1 });
 * list.add({ code: "lineage_mismatch", message: "gap", severity: "warning" });
 * list.add({ code: "lineage_mismatch", message: "gap", severity: "warning" });
 * deepEqual([list.hasErrors, list.toArray()[1]!.severity], [false, "warning"]);
 * ```
 */
export class IssueList {
  readonly #cap: number;
  readonly #kept: Issue[] = [];
  readonly #perCode = new Map<IssueCode, number>();
  /** Codes of which at least one error (an issue without `severity: "warning"`) was seen. */
  readonly #errorCodes = new Set<IssueCode>();

  constructor(options: IssueListOptions = {}) {
    this.#cap = options.capPerCode ?? 50;
  }

  /** Records one issue. */
  add(issue: Issue): void {
    const seen = (this.#perCode.get(issue.code) ?? 0) + 1;
    this.#perCode.set(issue.code, seen);
    if (issue.severity !== "warning") this.#errorCodes.add(issue.code);
    if (seen <= this.#cap) this.#kept.push(issue);
  }

  /** Records several issues. */
  addAll(issues: Iterable<Issue>): void {
    for (const issue of issues) this.add(issue);
  }

  /**
   * Records another list's result: its listed issues and its counts per
   * code, which include the issues past that list's cap. Its summary issues
   * ("N more CODE issues not listed") are not re-recorded as issues, so the
   * counts stay the reported ones instead of the listed ones.
   *
   * @example
   * ```ts
   * import { IssueList } from "./issue.ts";
   * import { deepEqual } from "node:assert/strict";
   * const first = new IssueList({ capPerCode: 2 });
   * for (let i = 1; i <= 5; i++) first.add({ code: "parse_error", message: "bad JSON", line: i });
   * const merged = new IssueList({ capPerCode: 2 });
   * merged.addReport({ issues: first.toArray(), counts: first.counts() });
   * deepEqual(merged.counts(), { parse_error: 5 });
   * deepEqual(merged.toArray().at(-1)!.message, "3 more parse_error issues not listed");
   * ```
   */
  addReport(report: {
    readonly issues: readonly Issue[];
    readonly counts: Readonly<Record<string, number>>;
  }): void {
    const listed = new Map<IssueCode, number>();
    for (const issue of report.issues) {
      const summary = issue.file === undefined && issue.line === undefined &&
        issue.path === undefined && issue.episode === undefined &&
        new RegExp(`^\\d+ more ${issue.code} issues not listed$`).test(issue.message);
      if (summary) {
        if (issue.severity !== "warning") this.#errorCodes.add(issue.code);
        continue;
      }
      this.add(issue);
      listed.set(issue.code, (listed.get(issue.code) ?? 0) + 1);
    }
    for (const [code, n] of Object.entries(report.counts) as [IssueCode, number][]) {
      const unlisted = n - (listed.get(code) ?? 0);
      if (unlisted > 0) this.#perCode.set(code, (this.#perCode.get(code) ?? 0) + unlisted);
    }
  }

  /** Total number of issues seen, including those past the cap. */
  get count(): number {
    let n = 0;
    for (const c of this.#perCode.values()) n += c;
    return n;
  }

  /** Whether no issue was recorded. */
  get ok(): boolean {
    return this.#perCode.size === 0;
  }

  /** Number of issues per code, codes in sorted order. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const code of [...this.#perCode.keys()].sort()) out[code] = this.#perCode.get(code)!;
    return out;
  }

  /** Whether an error (an issue that is not a warning) was recorded. */
  get hasErrors(): boolean {
    return this.#errorCodes.size > 0;
  }

  /**
   * The kept issues in the order they were found, followed by one summary
   * issue per code that went past the cap (a warning when every issue of
   * that code was one).
   */
  toArray(): Issue[] {
    const out = [...this.#kept];
    for (const [code, n] of this.#perCode) {
      if (n > this.#cap) {
        const message = `${n - this.#cap} more ${code} issues not listed`;
        out.push(
          this.#errorCodes.has(code) ? { code, message } : { code, message, severity: "warning" },
        );
      }
    }
    return out;
  }
}

/**
 * Renders one issue as a single readable line: code, where, what. Control
 * characters in any value are escaped (see {@linkcode escapeControl}).
 *
 * @param issue The issue.
 * @returns `code  file:line path  message`, with the parts that are known.
 *
 * @example
 * ```ts
 * import { formatIssue } from "./issue.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   formatIssue({ code: "schema_error", message: "must be a number; got null", file: "t.jsonl", line: 3, path: "reward" }),
 *   "schema_error  t.jsonl:3 reward  must be a number; got null",
 * );
 * ```
 */
export function formatIssue(issue: Issue): string {
  let where = escapeControl(issue.file ?? "");
  if (issue.line !== undefined) where += `:${issue.line}`;
  if (issue.path !== undefined && issue.path !== "") {
    where += (where ? " " : "") + escapeControl(issue.path);
  }
  if (issue.episode !== undefined) {
    where += (where ? " " : "") + `[${escapeControl(issue.episode)}]`;
  }
  const message = escapeControl(issue.message);
  const code = issue.severity === "warning" ? `${issue.code} (warning)` : issue.code;
  return where ? `${code}  ${where}  ${message}` : `${code}  ${message}`;
}

/**
 * Escapes control characters (C0, DEL, C1, and the Unicode line and
 * paragraph separators) as `\n`, `\r`, `\t` or `\uXXXX`, so that a value
 * from the data (a task id with a newline) can never split or rewrite a
 * printed line. Every other character is kept.
 *
 * @param text Any text.
 * @returns The text on one line.
 *
 * @example
 * ```ts
 * import { escapeControl } from "./issue.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(escapeControl("ws\n0001\t\u001b[2J é"), "ws\\n0001\\t\\u001b[2J é");
 * ```
 */
export function escapeControl(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/**
 * Thrown by the throwing entry points when input has issues. Carries the
 * issues as data; its message renders the first few.
 */
export class GatelabError extends Error {
  /** The issues that caused the failure. */
  readonly issues: readonly Issue[];

  constructor(what: string, issues: readonly Issue[]) {
    const shown = issues.slice(0, 5).map(formatIssue).join("\n  ");
    const more = issues.length > 5 ? `\n  ... and ${issues.length - 5} more` : "";
    super(`${what}:\n  ${shown}${more}`);
    this.name = "GatelabError";
    this.issues = issues;
  }
}

/** Result of a non-throwing entry point: the value, or the issues. */
export type Result<T> =
  | { readonly ok: true; readonly value: T; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };
