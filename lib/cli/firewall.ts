/**
 * `deno task gate firewall --texts <file>... --gold <gold.jsonl> --out <dir>`:
 * the gold firewall audit over deployable texts (docs/history.md).
 *
 * Exit codes: 0 nothing found, 2 findings or bad input (only
 * validation.json is written, listing every finding), 1 crash.
 *
 * @module
 */
import { inputFile, outputDir } from "./paths.ts";
import { parseCommand } from "./args.ts";
import { FIREWALL } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { firewallAudit } from "../firewall/audit.ts";
import { firewallFiles } from "../firewall/files.ts";
import { finish } from "./finish.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, FIREWALL, context);
  if (cli === null) return 0;
  const { values, command } = cli;
  const texts = values.texts;
  if (texts.length === 0) throw cli.usageError("firewall needs at least one --texts <file>");
  const out = values.out;
  const given = [
    { label: "--gold", path: values.gold },
    ...texts.map((path) => ({ label: "--texts", path })),
  ];
  for (const g of given) await inputFile(g, "a JSONL file");
  await outputDir({ label: "--out", path: out }, given);
  const audit = await firewallAudit(values.gold, texts, command);
  return await finish({
    out,
    command,
    quiet: values.quiet,
    refusal: audit.ok ? null : audit.validation,
    result: () => {
      if (!audit.ok) throw new Error("firewall: a refused audit reached its result");
      const { fields, lines } = audit.document.scanned;
      return {
        files: firewallFiles(audit.document, audit.validation),
        summary: [
          `ok: ${fields} deployable field(s) in ${lines} line(s), no gold found; wrote ${out}/`,
        ],
      };
    },
  });
}
