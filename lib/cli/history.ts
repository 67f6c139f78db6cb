/**
 * `deno task gate history <gate_dir_or_analysis_dir>... --out <dir>`: a
 * training history across checkpoints: lineage checks, chunk lifecycles,
 * the internalization screen, tables and figures (docs/history.md).
 *
 * Exit codes: 0 ok (lineage gaps allowed are warnings), 2 issues (only
 * validation.json is written), 1 crash.
 *
 * @module
 */
import { cacheOption, inputDir, outputDir } from "./paths.ts";
import { bootstrapOptions, parseCommand } from "./args.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { formatIssue, GatelabError, type Issue } from "../core/issue.ts";
import { type ValidationDocument, validationDocument } from "../core/validation_document.ts";
import { type ReadHistorySteps, readHistorySteps } from "../history/read_steps.ts";
import { buildHistory, type HistoryDocument } from "../history/history.ts";
import { historyFiles } from "../history/files.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { finish } from "./finish.ts";
import { printError } from "../core/terminal_text.ts";

const HELP = `usage: deno task gate history <gate_dir_or_analysis_dir>... --out <dir> [options]

Reads the gates of a training history in order (Gate A, then one online gate
or pooled rounds per later checkpoint): analysis directories as written by
gate analyze, or gate directories analysed now (rounds sharing one bare run
are pooled into one step). Checks lineage (lineage_mismatch, version_reused),
builds every chunk's lifecycle across steps and the descriptive
internalization screen, and writes history.json, history.md/.tex and the
figures history_lifecycle and history_trajectories (docs/history.md).

  --out <dir>             output directory (required)
  --allow-lineage-gaps    record lineage issues as warnings instead of failing
  --bootstrap <B>         task-bootstrap draws for gates analysed now (default 0)
  --seed <S>              bootstrap seed (default ${DEFAULTS.seed})
  --cache <dir>           read runs of gates analysed now through the run cache
  --no-png                skip PNG copies of the figures
${LABEL_PREFIX_HELP}
  --quiet                 print only the summary`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "history",
    help: HELP,
    options: {
      out: { type: "string" },
      "allow-lineage-gaps": { type: "boolean" },
      bootstrap: { type: "string" },
      seed: { type: "string" },
      cache: { type: "string" },
      "no-png": { type: "boolean" },
      quiet: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, what: "gate or analysis directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const { draws, seed } = bootstrapOptions(values, { draws: 0 });
  const steps = positionals.map((path) => ({ label: "step directory", path }));
  for (const s of steps) await inputDir(s, "a gate or analysis directory");
  const cache = cacheOption(values.cache);
  await outputDir({ label: "--out", path: out }, [...steps, ...cache.inputs]);
  await cache.check();
  const read = await readHistorySteps(positionals, { draws, seed, command, ...cache.options });
  return await finish({
    out,
    command,
    inputs: read.inputs,
    quiet: values.quiet,
    refusal: readRefusal(read, command),
    result: async () => {
      const allowLineageGaps = values["allow-lineage-gaps"] === true;
      const { document, issues } = buildHistory(read.steps, { allowLineageGaps, command });
      const validation = validationDocument(issues, command, read.inputs);
      if (!validation.ok) throw new GatelabError("Cannot build the history", issues);
      return {
        files: await historyFiles(document, {
          validation,
          scope,
          png: values["no-png"] !== true,
          onMissingConverter: (line) => printError(line),
        }),
        details: [...issues.map(formatIssue), ...stepLines(document)],
        summary: [summaryLine(document, issues, out)],
      };
    },
  });
}

/** The refusal of steps that could not be read, or that rank by different metrics; null: none. */
function readRefusal(read: ReadHistorySteps, command: string): ValidationDocument | null {
  if (read.issues.length > 0) {
    // Listed and counted as read (validation's counts include the issues past its cap).
    const doc = validationDocument([], command, read.inputs);
    return { ...doc, ok: false, issues: read.issues, counts: read.counts };
  }
  const metrics = [...new Set(read.steps.map((s) => s.metric))];
  if (metrics.length <= 1) return null;
  const issue: Issue = {
    code: "usage_error",
    message: `the steps rank by different metrics (${
      metrics.join(", ")
    }); re-analyse with one --metric`,
  };
  return validationDocument([issue], command, read.inputs);
}

/** One line per step (checkpoint, gates, selection) and per internalization trend. */
function stepLines(document: HistoryDocument): string[] {
  return [
    ...document.steps.map((s) =>
      `  step ${s.step}  ${s.checkpoint_id ?? "?"}  ${
        s.gate_ids.join("+")
      }  selected ${s.selected.length}/${s.budget_k}`
    ),
    ...document.internalization.map((r) =>
      `  trend ${r.chunk_id.padEnd(30)} slope ${r.slope.toFixed(4)} [${r.slope_ci[0].toFixed(4)}, ${
        r.slope_ci[1].toFixed(4)
      }]${r.flagged ? "  flagged (descriptive)" : ""}`
    ),
  ];
}

/** The `ok:` line: steps, chunks, lineage and the chunks the screen flagged. */
function summaryLine(document: HistoryDocument, issues: readonly Issue[], out: string): string {
  const flagged = document.internalization.filter((r) => r.flagged).map((r) => r.chunk_id);
  return `ok: ${document.steps.length} steps, ${Object.keys(document.chunks).length} chunks; ` +
    `lineage ${issues.length === 0 ? "clean" : `${issues.length} warning(s)`}; ` +
    `internalization flagged: ${flagged.join(", ") || "none"}; wrote ${out}/`;
}
