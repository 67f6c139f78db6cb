/**
 * `deno task gate validate <gate_dir>... --out <dir>`: runs every data
 * contract and pairing check on one gate, or on several gates that share
 * one bare run, and always writes `<out>/validation.json`.
 *
 * Prints one line per issue (code, where, what) and a summary line. Exit
 * codes: 0 clean, 2 issues (or bad usage), 1 crash.
 *
 * @module
 */
import { loadProgress } from "./load_progress.ts";
import { parseCommand } from "./args.ts";
import { VALIDATE } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { cacheOption, gateDir, outputDir } from "./paths.ts";
import { formatIssue } from "../core/issue.ts";
import { stderrProgress } from "../core/progress.ts";
import { type GateValidation, validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/document.ts";
import { validateFiles } from "../validate/files.ts";
import { type CommandResult, finish } from "./finish.ts";
import { printError } from "../core/terminal_text.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, VALIDATE, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const gates = positionals.map((path) => ({ label: "gate directory", path }));
  for (const g of gates) await gateDir(g);
  const cache = cacheOption(values.cache);
  await outputDir({ label: "--out", path: values.out }, [...gates, ...cache.inputs]);
  await cache.check();

  const validation = await validateGates(positionals, {
    capPerCode: values.cap,
    ...(values["pool-checkpoints"] ? { poolCheckpoints: true } : {}),
    ...cache.options,
    ...(positionals.length > 1 && !values.quiet ? { onProgress: stderrProgress("reading") } : {}),
    ...loadProgress(values.quiet),
  });
  for (const w of validation.warnings ?? []) printError(formatIssue(w));
  // The report is validate's result, ok or not: it always replaces --out.
  return await finish({
    out: values.out,
    command,
    quiet: values.quiet,
    result: () => validateResult(validation, command, values.out),
  });
}

/** validation.json, one line per issue and the verdict line; exit 2 unless the gate passed. */
function validateResult(validation: GateValidation, command: string, out: string): CommandResult {
  const files = validateFiles(validationReport(validation, command));
  const details = validation.issues.map(formatIssue);
  const d = validation.dataset;
  if (validation.ok && d) {
    const cached = cacheSummary(validation.inputs);
    return {
      files,
      details,
      summary: [
        `ok: ${d.gates.length} gate(s), ${d.n} paired rows, ${d.k} columns, ${d.metrics.length} metrics${cached}; wrote ${out}/validation.json`,
      ],
    };
  }
  const total = Object.values(validation.counts).reduce((a, b) => a + b, 0);
  const byCode = Object.entries(validation.counts).map(([c, n]) => `${c} ${n}`).join(", ");
  return {
    files,
    details,
    summary: [`not ok: ${total} issue(s) (${byCode}); wrote ${out}/validation.json`],
    exitCode: 2,
  };
}

/** `, cache: 2 hit, 1 miss` over the run inputs, or "" when the cache was off. */
function cacheSummary(inputs: readonly { readonly cache?: string }[]): string {
  const counts = new Map<string, number>();
  for (const i of inputs) {
    if (i.cache === "hit" || i.cache === "miss") {
      counts.set(i.cache, (counts.get(i.cache) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return "";
  return `, cache: ${[...counts].map(([k, n]) => `${n} ${k}`).join(", ")}`;
}
