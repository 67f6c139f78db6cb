/**
 * `deno task gate ledger-audit <ledger.jsonl> --out <dir> [--history <dir>]`:
 * audits a proposal ledger against its schema and the proposal rules
 * (docs/history.md).
 *
 * Exit codes: 0 clean, 2 issues (only validation.json is written), 1 crash.
 *
 * @module
 */
import { inputDir, inputFile, outputDir } from "./paths.ts";
import { parseCommand } from "./args.ts";
import { LEDGER_AUDIT } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { ledgerAudit } from "../ledger_audit/audit.ts";
import { ledgerAuditFiles } from "../ledger_audit/files.ts";
import { finish } from "./finish.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, LEDGER_AUDIT, context);
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
  const audit = await ledgerAudit(file, { history: values.history, command });
  return await finish({
    out,
    command,
    quiet: values.quiet,
    refusal: audit.ok ? null : audit.validation,
    result: async () => {
      if (!audit.ok) throw new Error("ledger-audit: a refused audit reached its result");
      return {
        files: await ledgerAuditFiles(audit),
        summary: [`ok: ${audit.entries.length} ledger line(s), no issue; wrote ${out}/`],
      };
    },
  });
}
