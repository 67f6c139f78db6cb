/**
 * An import validates what it is about to write with `gate validate`'s own
 * validator, so an import that succeeds wrote gates that validate, and one
 * whose gates would not is refused with validation's codes and messages.
 *
 * @module
 */
import { join } from "node:path";
import { type Issue, IssueList } from "../core/issue.ts";
import { validateGates } from "../validate/validate_gates.ts";
import type { ImportBuild } from "./build.ts";

/**
 * Validation refused the gates an import built: the issues (their files
 * named as the user knows them, a trace line by its source row) and their
 * counts per code (including those past the cap).
 */
export class ImportRefused extends Error {
  /**
   * @param issues The issues, capped per code.
   * @param counts Issues per code, past the cap too.
   */
  constructor(
    readonly issues: readonly Issue[],
    readonly counts: Readonly<Record<string, number>>,
  ) {
    super(`the imported gates do not validate: ${issues.length} issue(s)`);
    this.name = "ImportRefused";
  }
}

/**
 * Validates the gates of an import written into `dir` (the new directory
 * before the swap, lib/core/atomic_write.ts `verify`), each bare run with
 * the gates paired with it, as `gate validate` does; throws
 * {@linkcode ImportRefused} when any issue is found. An issue on a
 * traces.jsonl line names the source file and row it came from (and the
 * line in its message); any other names the file under `shown` it would
 * have been.
 *
 * @param dir The directory holding the import's files.
 * @param build What the import built (its gates and their source rows).
 * @param shown The output directory as the user gave it.
 * @param onWarning Told each warning of validation but the unrecorded fields
 *   (import.json lists those): job seeds recorded but not compared that differ.
 * @throws {ImportRefused} When the gates do not validate.
 */
export async function verifyImport(
  dir: string,
  build: ImportBuild,
  shown: string,
  onWarning: (warning: Issue) => void = () => {},
): Promise<void> {
  const groups = new Map<string, string[]>();
  for (const g of build.gates) {
    const key = g.bare_run_dir ?? "";
    groups.set(key, [...(groups.get(key) ?? []), g.dir]);
  }
  const issues = new IssueList();
  for (const gates of groups.values()) {
    const v = await validateGates(gates.map((g) => join(dir, g)));
    for (const w of v.warnings ?? []) {
      if (w.code !== "provenance_unrecorded") onWarning(named(w, dir, build, shown));
    }
    if (v.ok) continue;
    issues.addReport({
      issues: v.issues.map((i) => named(i, dir, build, shown)),
      counts: v.counts,
    });
  }
  if (!issues.ok) throw new ImportRefused(issues.toArray(), issues.counts());
}

/** An issue of the written files, named by its source row where known, else by `shown`. */
function named(issue: Issue, dir: string, build: ImportBuild, shown: string): Issue {
  if (issue.file === undefined || !issue.file.startsWith(dir)) return issue;
  const relative = issue.file.slice(dir.length + 1).split("\\").join("/");
  const source = issue.line === undefined ? undefined : build.origins.at(relative, issue.line);
  if (source === undefined) return { ...issue, file: join(shown, relative) };
  return {
    ...issue,
    file: source.file,
    line: source.row,
    message: `${issue.message} (line ${issue.line} of ${relative})`,
  };
}
