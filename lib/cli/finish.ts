/**
 * How every command ends, in one place: validate -> refuse -> compute ->
 * lock -> swap -> print.
 *
 * @module
 */
import { type FileValue, writeFilesAtomic, type WriteOptions } from "../core/atomic_write.ts";
import { GatelabError, type Issue, IssueList } from "../core/issue.ts";
import { type ValidationDocument, validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { printError, printLine } from "../core/terminal_text.ts";

/** What a command's library call produced: every file it writes and what it prints. */
export interface CommandResult {
  /** Every file the command writes, by name inside `out` (its stage's `files(doc)`). */
  readonly files: Readonly<Record<string, FileValue>>;
  /** Lines printed before the summary unless `--quiet` (a table, one line per version). */
  readonly details?: readonly string[];
  /** Lines printed always, after the files are written (the `ok: ...` line). */
  readonly summary: readonly string[];
  /** Lines printed to stderr always, after the files are written and before the details. */
  readonly warnings?: readonly string[];
  /** Write options only the computation knows (a file beside `out`), over `Finish.write`. */
  readonly write?: WriteOptions;
  /**
   * The exit code once the files are written: 2 for a result that reports
   * failed checks yet is the command's output (gate validate's
   * validation.json, which replaces `out` either way).
   * @default {0}
   */
  readonly exitCode?: 0 | 2;
}

/** What {@linkcode finish} needs: where, what was checked, and how to compute. */
export interface Finish {
  /** The `--out` directory (checked by `outputDir` before). */
  readonly out: string;
  /** The command line, recorded in a refusal's validation.json. */
  readonly command: string;
  /** The inputs a refusal's validation.json records. */
  readonly inputs?: readonly unknown[];
  /** `--quiet`: print only the summary (and, on refusal, only its line). */
  readonly quiet?: boolean | undefined;
  /**
   * The issues validation found; any error refuses (exit 2) with a
   * validation.json of them. Ignored when `refusal` is given.
   */
  readonly issues?: IssueList | readonly Issue[];
  /** A ready refusal document (its own counts, say a capped validation report); null: none. */
  readonly refusal?: ValidationDocument | null;
  /**
   * Computes the result once nothing was refused. A {@linkcode GatelabError}
   * thrown here refuses with its issues, like validation's.
   */
  readonly result: () => CommandResult | Promise<CommandResult>;
  /**
   * Passed to {@linkcode writeFilesAtomic} (files beside `out`, a check before the swap); a
   * {@linkcode GatelabError} thrown by the check or a file's value refuses like validation's.
   */
  readonly write?: WriteOptions;
}

/**
 * Ends a command: refuses (one line per issue, validation.json in `out` or
 * `out.failed`, exit 2) when validation found an error or the computation
 * threw a {@linkcode GatelabError}; otherwise writes every file of the result
 * in one atomic step under the output lock, prints its details (unless
 * quiet) and its summary, and returns its exit code (0 unless it says 2).
 *
 * @example A refusal writes validation.json only and returns 2
 * ```ts
 * import { finish } from "./finish.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const out = `${await Deno.makeTempDir()}/out`;
 * const code = await finish({
 *   out, command: "gate x", quiet: true,
 *   issues: [{ code: "io_error", file: "a.jsonl", message: "cannot read" }],
 *   result: () => { throw new Error("not reached"); },
 * });
 * equal(code, 2);
 * deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [".gatelab-output.json", "validation.json"]);
 * ```
 *
 * @example A result is written whole, then summarised
 * ```ts
 * import { finish } from "./finish.ts";
 * import { equal } from "node:assert/strict";
 * const out = `${await Deno.makeTempDir()}/out`;
 * const code = await finish({
 *   out, command: "gate x", issues: [],
 *   result: () => ({ files: { "x.json": "{}\n" }, summary: [`ok: wrote ${out}/x.json`] }),
 * });
 * equal(code, 0);
 * equal(await Deno.readTextFile(`${out}/x.json`), "{}\n");
 * ```
 */
export async function finish(spec: Finish): Promise<number> {
  const { out, command, quiet } = spec;
  const inputs = spec.inputs ?? [];
  const refusal = spec.refusal ?? refusalOf(spec.issues, command, inputs);
  if (refusal) return await refuse(out, refusal, { quiet });
  let result: CommandResult;
  try {
    result = await spec.result();
    await writeFilesAtomic(out, result.files, { ...spec.write, ...result.write });
  } catch (error) {
    if (!(error instanceof GatelabError)) throw error;
    return await refuse(out, validationDocument(error.issues, command, inputs), { quiet });
  }
  for (const line of result.warnings ?? []) printError(line);
  if (!quiet) { for (const line of result.details ?? []) printLine(line); }
  for (const line of result.summary) printLine(line);
  return result.exitCode ?? 0;
}

function refusalOf(
  issues: IssueList | readonly Issue[] | undefined,
  command: string,
  inputs: readonly unknown[],
): ValidationDocument | null {
  if (issues === undefined) return null;
  const none = issues instanceof IssueList ? issues.ok : issues.length === 0;
  return none ? null : validationDocument(issues, command, inputs);
}
