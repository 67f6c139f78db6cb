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
import { parseCommand, UsageError } from "./args.ts";
import { firewallAudit } from "../firewall/audit.ts";
import { firewallFiles } from "../firewall/files.ts";
import { finish } from "./finish.ts";

const HELP =
  `usage: deno task gate firewall --texts <chunks.jsonl|cards.jsonl>... --gold <gold.jsonl> --out <dir>

Scans every deployable text for gold information: chunk texts, the
deployable_abstraction of failure cards (their privileged_audit may hold
gold) and success cards whole. Findings: gold_asin (any ASIN-shaped token),
task_id_leak, title_leak (a gold title or a long verbatim span of one after
normalisation), instance_identifier. Exit 2 when anything is found; every
finding is listed with file, line, field, span and the gold item it matches.

  --texts <file>   a chunks or cards JSONL file (repeat for several)
  --gold <file>    gold.jsonl: {task_id, gold_asin, product_title, identifiers}
  --out <dir>      output directory (required)
  --quiet          print only the summary`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "firewall",
    help: HELP,
    options: {
      texts: { type: "string", multiple: true },
      gold: { type: "string" },
      out: { type: "string" },
      quiet: { type: "boolean" },
    },
    positionals: { max: 0 },
    required: { out: "<dir>", gold: "<gold.jsonl>" },
  });
  if (cli === null) return 0;
  const { values, command } = cli;
  const texts = values.texts ?? [];
  if (texts.length === 0) {
    throw new UsageError(
      "firewall needs at least one --texts <file>; see deno task gate firewall --help",
    );
  }
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
