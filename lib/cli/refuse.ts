import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { formatIssue } from "../core/issue.ts";
import type { ValidationDocument } from "../core/validation_document.ts";

/**
 * How every command refuses input with issues: print one line per issue
 * (unless quiet) and a summary, write `<out>/validation.json` and nothing
 * else, and return exit code 2.
 */
export async function refuse(
  out: string,
  doc: ValidationDocument,
  options: { readonly quiet?: boolean | undefined } = {},
): Promise<2> {
  await writeFilesAtomic(out, { "validation.json": toJsonText(doc) });
  if (!options.quiet) { for (const issue of doc.issues) console.log(formatIssue(issue)); }
  const total = Object.values(doc.counts).reduce((a, b) => a + b, 0);
  const byCode = Object.entries(doc.counts).map(([code, n]) => `${code} ${n}`).join(", ");
  console.log(`not ok: ${total} issue(s) (${byCode}); wrote ${out}/validation.json only`);
  return 2;
}
