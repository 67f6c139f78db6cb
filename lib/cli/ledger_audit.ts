/**
 * `deno task gate ledger-audit <ledger.jsonl> --out <dir> [--history <dir>]`:
 * audits a proposal ledger against its schema and the proposal rules
 * (docs/history.md).
 *
 * Exit codes: 0 clean, 2 issues (only validation.json is written), 1 crash.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import {
  type HistoryJson,
  HistorySchema,
  type LedgerAuditSchema,
  readOutput,
} from "../contract/outputs/mod.ts";
import { inputDir, inputFile, outputDir } from "./paths.ts";
import { join } from "node:path";
import { parseCommand } from "./args.ts";
import type { Issue } from "../core/issue.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { ledgerTidy } from "../ledger_audit/ledger_tidy.ts";
import { validationDocument } from "../core/validation_document.ts";
import { generatorMeta } from "../core/meta.ts";
import { sha256Hex } from "../core/sha256.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "../load/jsonl.ts";
import { type LedgerLine, LedgerLineSchema } from "../ledger_audit/schema.ts";
import { type CitedResult, ledgerIssues } from "../ledger_audit/checks.ts";
import { refuse } from "./refuse.ts";

const HELP = `usage: deno task gate ledger-audit <ledger.jsonl> --out <dir> [--history <dir>]

Checks every line of a proposal ledger against the ledger schema
(docs/FORMAT.md, Extensions) and the proposal rules: operation_invalid,
rewrite_target_missing, reproposed_rejected, dimension_cap, and with
--history (a gate history output directory) ledger_result_mismatch against
the analysis of the line's proposal checkpoint.

  --out <dir>       output directory (required)
  --history <dir>   directory with history.json (gate history) to check results against
  --quiet           print only the summary`;

// deno-lint-ignore no-explicit-any
type Json = any;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "ledger-audit",
    help: HELP,
    options: {
      out: { type: "string" },
      history: { type: "string" },
      quiet: { type: "boolean" },
    },
    positionals: { min: 1, max: 1, what: "ledger file" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const file = positionals[0]!;
  const given = [
    { label: "ledger file", path: file },
    ...(values.history !== undefined ? [{ label: "--history", path: values.history }] : []),
  ];
  await inputFile(given[0]!, "a proposal ledger file (JSONL)");
  if (values.history !== undefined) {
    await inputDir(given[1]!, "a history output directory (history.json)");
  }
  await outputDir({ label: "--out", path: out }, given);
  const issues: Issue[] = [];
  const entries: LedgerLine[] = [];
  const chunks: Uint8Array[] = [];
  try {
    issues.push(
      ...await forEachJsonlLine(file, (value, line) => {
        const parsed = parseWithSchema(LedgerLineSchema, value, { file, line });
        if (parsed.ok) entries.push({ ...parsed.value, line });
        else issues.push(...parsed.issues);
      }, { onBytes: (c) => chunks.push(c.slice()) }),
    );
  } catch (error) {
    issues.push({
      code: "io_error",
      message: `cannot read: ${error instanceof Error ? error.message : error}`,
      file,
    });
  }
  const inputs: Json[] = [{
    file,
    sha256: issues.some((i) => i.code === "io_error") ? null : sha256Hex(...chunks),
  }];
  let cited: ((checkpoint: string, id: string) => CitedResult | null | undefined) | undefined;
  if (values.history !== undefined) {
    const path = join(values.history, "history.json");
    const read = await readOutput(path, HistorySchema);
    if (!read.ok) issues.push(...read.issues);
    else if (read.output === null) {
      issues.push({
        code: "io_error",
        message: "cannot read history.json: no such file",
        file: path,
      });
    } else {
      inputs.push({ history: path });
      cited = historyLookup(read.output.value);
    }
  }
  if (issues.length === 0) {
    issues.push(...ledgerIssues(entries, { file, ...(cited ? { cited } : {}) }));
  }
  const quiet = { quiet: values.quiet };
  const validation = validationDocument(issues, command, inputs);
  if (!validation.ok) return await refuse(out, validation, quiet);
  await writeFilesAtomic(out, {
    "validation.json": toJsonText(validation),
    "ledger_audit.json": toJsonText(
      {
        format: "gatelab.ledger-audit/v1",
        ledger: inputs[0],
        history: values.history ?? null,
        lines: entries.length,
        proposals: entries.filter((e) => e.operation !== null).length,
        checks: [
          "schema_error",
          "operation_invalid",
          "rewrite_target_missing",
          "reproposed_rejected",
          "dimension_cap",
          ...(cited ? ["ledger_result_mismatch"] : []),
        ],
        conventions: {
          rejected: "validation_result non_positive or rewrite_loser",
          reproposal:
            "a proposal from another proposal checkpoint with the same failure_mechanism (case and whitespace ignored), consolidation_cluster_id or candidate_id as an earlier rejected line",
          effect_tolerance: 5e-5,
          dimension_cap: 16,
        },
        generator: generatorMeta(command),
      } satisfies z.input<typeof LedgerAuditSchema>,
    ),
    ...await tidyFiles([ledgerTidy(entries)]),
  });
  console.log(`ok: ${entries.length} ledger line(s), no issue; wrote ${out}/`);
  return 0;
}

/** checkpoint_id -> version_id -> the status and estimate history.json records for it. */
function historyLookup(
  history: HistoryJson,
): (checkpoint: string, id: string) => CitedResult | null | undefined {
  const byCheckpoint = new Map<string, Map<string, CitedResult>>();
  const stepCheckpoint = new Map<number, string>();
  for (const s of history.steps) {
    if (s.checkpoint_id === null) continue;
    stepCheckpoint.set(s.step, s.checkpoint_id);
    if (!byCheckpoint.has(s.checkpoint_id)) byCheckpoint.set(s.checkpoint_id, new Map());
  }
  for (const entries of Object.values(history.chunks)) {
    for (const e of entries) {
      if (e === null) continue;
      const versions = byCheckpoint.get(stepCheckpoint.get(e.step) ?? "");
      if (!versions) continue;
      versions.set(e.version_id, { status: e.status, estimate: e.estimate });
      for (const o of e.others) {
        versions.set(o.version_id, { status: o.status, estimate: o.estimate });
      }
    }
  }
  return (checkpoint, id) => {
    const versions = byCheckpoint.get(checkpoint);
    if (!versions) return undefined;
    return versions.get(id) ?? null;
  };
}
