/**
 * How every command refuses input with issues, in one voice: one line per
 * issue, then one summary line that counts them and says what was written.
 *
 * @module
 */
import { printError, printLine } from "../core/terminal_text.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { formatIssue, type Issue, IssueList } from "../core/issue.ts";
import type { ValidationDocument } from "../core/validation_document.ts";

/**
 * How every command refuses input with issues: print one line per issue
 * (unless quiet) and a summary, write the failed run's `validation.json`
 * and return exit code 2.
 *
 * The report is written as a failure ({@linkcode writeFilesAtomic} with
 * `failure: true`): into `<out>` when it holds nothing or an earlier
 * failure, else into `<out>.failed/` so an earlier successful result in
 * `<out>` stays whole. The summary line names where it went.
 */
export async function refuse(
  out: string,
  doc: ValidationDocument,
  options: { readonly quiet?: boolean | undefined } = {},
): Promise<2> {
  const where = await writeFilesAtomic(out, { "validation.json": toJsonText(doc) }, {
    failure: true,
  });
  if (!options.quiet) { for (const issue of doc.issues) printLine(formatIssue(issue)); }
  const total = Object.values(doc.counts).reduce((a, b) => a + b, 0);
  const byCode = Object.entries(doc.counts).map(([code, n]) => `${code} ${n}`).join(", ");
  printLine(`not ok: ${total} issue(s) (${byCode}); ${refusedWhere(out, where)}`);
  return 2;
}

/**
 * "wrote out/validation.json only", or, when an earlier result was kept,
 * "wrote out.failed/validation.json; out keeps its earlier result".
 */
export function refusedWhere(out: string, where: string): string {
  return where === out
    ? `wrote ${out}/validation.json only`
    : `wrote ${where}/validation.json; ${out} keeps its earlier result`;
}

/**
 * How a command that writes nothing on failure refuses (`gate import`, whose
 * `--out` is one unit): one line per issue on stderr (at most 50 per code,
 * then a count), the hint when there is one,
 * `not <done>: N issue(s); nothing written`, exit code 2.
 *
 * @param issues The issues found.
 * @param done What the command would have done: `"imported"`.
 * @param options `hint`: one more line saying what to do; `counts`: issues
 *   per code (past a cap too) when `issues` were capped already.
 * @returns 2.
 */
export function refuseUnwritten(
  issues: readonly Issue[],
  done: string,
  options: { readonly hint?: string; readonly counts?: Readonly<Record<string, number>> } = {},
): 2 {
  const list = new IssueList();
  if (options.counts === undefined) list.addAll(issues);
  else list.addReport({ issues, counts: options.counts });
  for (const issue of list.toArray()) printError(formatIssue(issue));
  if (options.hint !== undefined) printError(options.hint);
  printError(`not ${done}: ${list.count} issue(s); nothing written`);
  return 2;
}
