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
import { printError } from "../core/terminal_text.ts";
import { cacheOption, inputDir, outputDir } from "./paths.ts";
import { parseCommand } from "./args.ts";
import { HISTORY } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { formatIssue, GatelabError, type Issue } from "../core/issue.ts";
import { type ValidationDocument, validationDocument } from "../core/validation_document.ts";
import { type ReadHistorySteps, readHistorySteps } from "../history/read_steps.ts";
import { buildHistory, type HistoryDocument } from "../history/document.ts";
import { historyFiles } from "../history/files.ts";
import { labelScope } from "./label_prefix.ts";
import { finish } from "./finish.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, HISTORY, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const { out, bootstrap: draws, seed } = values;
  const scope = labelScope(out, values["label-prefix"]);
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
      const allowLineageGaps = values["allow-lineage-gaps"];
      const { document, issues } = buildHistory(read.steps, { allowLineageGaps, command });
      const validation = validationDocument(issues, command, read.inputs);
      if (!validation.ok) throw new GatelabError("Cannot build the history", issues);
      return {
        files: await historyFiles(document, {
          validation,
          scope,
          png: !values["no-png"],
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
