/**
 * `deno task gate study <study_dir> --out <dir>`: paper statistics of a
 * study (docs/study.md). Writes study.json and the arms, comparisons and
 * costs tables as Markdown and LaTeX, all in one atomic step; on input
 * issues writes only validation.json and exits 2.
 *
 * @module
 */
import { join } from "node:path";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { studyTidy } from "../study/study_tidy.ts";
import { formatIssue } from "../core/issue.ts";
import { stderrProgress } from "../core/progress.ts";
import { toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { studyArmsTable, studyComparisonsTable, studyCostsTable } from "../report/study_tables.ts";
import { analyzeStudy } from "../study/analyze.ts";
import { loadStudyDir } from "../study/load.ts";
import { studyDocument } from "../study/study_json.ts";
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { parseCommand } from "./args.ts";
import { inputDir, outputDir } from "./paths.ts";

const HELP = `usage: deno task gate study <study_dir> --out <dir> [--quiet]

Reads <study_dir>/study.json (plan), slots.jsonl and attempts.jsonl and writes
<out>/study.json, <out>/study_tables.md and <out>/study_tables.tex.
Input issues: <out>/validation.json only, exit 2.

${LABEL_PREFIX_HELP}`;

/** Runs the `study` command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "study",
    help: HELP,
    options: { out: { type: "string" }, quiet: { type: "boolean" }, ...LABEL_PREFIX_OPTION },
    positionals: { min: 1, max: 1, what: "study directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const dir = positionals[0]!, out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const study = { label: "study directory", path: dir };
  await inputDir(study, "a study directory (study.json, slots.jsonl, attempts.jsonl)");
  await outputDir({ label: "--out", path: out }, [study]);

  const loaded = await loadStudyDir(dir);
  if (!loaded.ok) return await refuse(out, validationDocument(loaded.issues, command), values);
  const analysis = analyzeStudy(loaded.value.input, {
    attemptsFile: join(dir, "attempts.jsonl"),
    ...(values.quiet ? {} : { onProgress: stderrProgress("study bootstrap") }),
  });
  if (!analysis.ok) {
    return await refuse(
      out,
      validationDocument(analysis.issues, command, loaded.value.inputs),
      values,
    );
  }
  for (const issue of analysis.issues) console.error(`warning ${formatIssue(issue)}`);

  const tables = scopeTables([
    studyArmsTable(analysis.value),
    studyComparisonsTable(analysis.value),
    studyCostsTable(analysis.value),
  ], scope);
  const doc = studyDocument(analysis.value, {
    command,
    inputs: loaded.value.inputs,
    issues: analysis.issues,
  });
  await writeFilesAtomic(out, {
    "study.json": toJsonText(doc),
    "study_tables.md": tables.map(toMarkdown).join("\n"),
    "study_tables.tex": tables.map(toLatex).join("\n"),
    ...await tidyFiles([studyTidy(doc.comparisons)]),
  });
  if (!values.quiet) {
    const incomplete = doc.comparisons.filter((c) => !c.complete).length;
    console.error(
      `study: ${doc.comparisons.length} comparison(s), ${incomplete} incomplete; ` +
        `${doc.attempts.violations} retry-policy violation(s); outputs in ${out}/`,
    );
  }
  return 0;
}
