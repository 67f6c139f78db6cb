/**
 * `deno task gate study <study_dir> --out <dir>`: paper statistics of a
 * study (docs/study.md). Writes study.json and the arms, comparisons and
 * costs tables as Markdown and LaTeX, all in one atomic step; on input
 * issues writes only validation.json and exits 2.
 *
 * @module
 */
import { join } from "node:path";
import { formatIssue, GatelabError } from "../core/issue.ts";
import { stderrProgress } from "../core/progress.ts";
import { labelScope } from "./label_prefix.ts";
import { analyzeStudy } from "../study/analyze.ts";
import { studyFiles } from "../study/files.ts";
import { loadStudyDir } from "../study/load.ts";
import { type StudyDocument, studyDocument } from "../study/document.ts";
import { validationDocument } from "../core/validation_document.ts";
import { finish } from "./finish.ts";
import { parseCommand } from "./args.ts";
import { STUDY } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputDir, outputDir } from "./paths.ts";
import { printError } from "../core/terminal_text.ts";

/** Runs the `study` command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, STUDY, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const dir = positionals[0]!, out = values.out, quiet = values.quiet;
  const scope = labelScope(out, values["label-prefix"]);
  const study = { label: "study directory", path: dir };
  await inputDir(study, "a study directory (study.json, slots.jsonl, attempts.jsonl)");
  await outputDir({ label: "--out", path: out }, [study]);

  const loaded = await loadStudyDir(dir);
  // The closing line goes to stderr once the files are written.
  const after: string[] = [];
  const code = await finish({
    out,
    command,
    quiet,
    inputs: loaded.ok ? loaded.value.inputs : [],
    refusal: loaded.ok ? null : validationDocument(loaded.issues, command),
    result: async () => {
      if (!loaded.ok) throw new Error("unreachable: a failed load refuses before the result");
      const { input, inputs } = loaded.value;
      const analysis = analyzeStudy(input, {
        attemptsFile: join(dir, "attempts.jsonl"),
        ...(quiet ? {} : { onProgress: stderrProgress("study bootstrap") }),
      });
      if (!analysis.ok) throw new GatelabError("Cannot analyse the study", analysis.issues);
      for (const issue of analysis.issues) printError(`warning ${formatIssue(issue)}`);
      const doc = studyDocument(analysis.value, { command, inputs, issues: analysis.issues });
      if (!quiet) after.push(studyLine(doc, out));
      return { files: await studyFiles(doc, { scope }), summary: [] };
    },
  });
  for (const line of after) printError(line);
  return code;
}

/** The closing line: comparisons, incomplete ones, retry-policy violations. */
function studyLine(doc: StudyDocument, out: string): string {
  const incomplete = doc.comparisons.filter((c) => !c.complete).length;
  return `study: ${doc.comparisons.length} comparison(s), ${incomplete} incomplete; ` +
    `${doc.attempts.violations} retry-policy violation(s); outputs in ${out}/`;
}
