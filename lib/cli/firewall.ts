/**
 * `deno task gate firewall --texts <file>... --gold <gold.jsonl> --out <dir>`:
 * the gold firewall audit over deployable texts (docs/history.md).
 *
 * Exit codes: 0 nothing found, 2 findings or bad input (only
 * validation.json is written, listing every finding), 1 crash.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { FirewallSchema } from "../contract/outputs/mod.ts";
import { inputFile, outputDir } from "./paths.ts";
import { parseCommand, UsageError } from "./args.ts";
import { type Issue, IssueList } from "../core/issue.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { validationDocument } from "../core/validation_document.ts";
import { generatorMeta } from "../core/meta.ts";
import { sha256Hex } from "../core/sha256.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "../load/jsonl.ts";
import { type GoldItem, goldItem, GoldItemSchema } from "../firewall/gold.ts";
import { deployableFields, FIREWALL_CONVENTIONS, scanText } from "../firewall/scan.ts";
import { refuse } from "./refuse.ts";

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
  const input = new IssueList();
  const inputs: { file: string; kind: "gold" | "texts"; sha256: string | null }[] = [];
  const read = async (
    file: string,
    kind: "gold" | "texts",
    visit: (v: Record<string, unknown>, line: number) => void,
  ) => {
    const chunks: Uint8Array[] = [];
    try {
      input.addAll(await forEachJsonlLine(file, visit, { onBytes: (c) => chunks.push(c.slice()) }));
      inputs.push({ file, kind, sha256: sha256Hex(...chunks) });
    } catch (error) {
      input.add({
        code: "io_error",
        message: `cannot read: ${error instanceof Error ? error.message : error}`,
        file,
      });
      inputs.push({ file, kind, sha256: null });
    }
  };
  const gold: GoldItem[] = [];
  await read(values.gold, "gold", (value, line) => {
    const parsed = parseWithSchema(GoldItemSchema, value, { file: values.gold, line });
    if (parsed.ok) gold.push(goldItem(parsed.value));
    else input.addAll(parsed.issues);
  });
  const lines: { file: string; line: number; value: Record<string, unknown> }[] = [];
  for (const file of texts) {
    await read(file, "texts", (value, line) => lines.push({ file, line, value }));
  }
  const quiet = { quiet: values.quiet };
  if (!input.ok) return await refuse(out, validationDocument(input, command, inputs), quiet);

  // Every finding is listed: no per-code cap.
  const findings = new IssueList({ capPerCode: Number.MAX_SAFE_INTEGER });
  let fields = 0;
  for (const { file, line, value } of lines) {
    for (const [path, text] of deployableFields(value)) {
      fields++;
      for (const f of scanText(text, gold)) {
        const what = f.gold.task_id === null
          ? "an ASIN-shaped token (instance-specific even though it is not in the gold file)"
          : `${f.gold.kind} of task ${f.gold.task_id} ("${f.gold.value}")`;
        const issue: Issue & { span: string; gold: typeof f.gold } = {
          code: f.code,
          message: `deployable text holds "${f.span}", which matches ${what}`,
          file,
          line,
          path,
          span: f.span,
          gold: f.gold,
        };
        findings.add(issue);
      }
    }
  }
  const validation = validationDocument(findings, command, inputs);
  if (!validation.ok) return await refuse(out, validation, quiet);
  await writeFilesAtomic(out, {
    "validation.json": toJsonText(validation),
    "firewall.json": toJsonText(
      {
        format: "gatelab.firewall/v1",
        ok: true,
        scanned: { files: texts.length, lines: lines.length, fields, gold_items: gold.length },
        findings: [],
        conventions: FIREWALL_CONVENTIONS,
        inputs,
        generator: generatorMeta(command),
      } satisfies z.input<typeof FirewallSchema>,
    ),
  });
  console.log(
    `ok: ${fields} deployable field(s) in ${lines.length} line(s), no gold found; wrote ${out}/`,
  );
  return 0;
}
