/**
 * `deno task gate ladder <ladder_dir> --out <dir> [--prefill <baseline.jsonl>]`:
 * re-analyses an e-process ladder gate (docs/FORMAT.md, Extensions: ladder gates).
 *
 * Exit codes: 0 ok, 2 input issues or `decision_mismatch` (only
 * validation.json is written), 1 crash.
 *
 * @module
 */
import { printError } from "../core/terminal_text.ts";
import { join } from "node:path";
import { parseCommand } from "./args.ts";
import { LADDER } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { GatelabError } from "../core/issue.ts";
import { validationDocument } from "../core/validation_document.ts";
import { labelScope } from "./label_prefix.ts";
import { readLadder } from "../ladder/read_ladder.ts";
import { ladderResult, type LadderResultDocument } from "../ladder/document.ts";
import { ladderFiles } from "../ladder/files.ts";
import { finish } from "./finish.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, LADDER, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const dir = positionals[0]!;
  const read = await readLadder(dir, values.prefill);
  const { spec, inputs } = read;
  return await finish({
    out,
    command,
    inputs,
    quiet: values.quiet,
    refusal: read.issues.length > 0 || spec === null
      ? validationDocument(read.issues, command, inputs)
      : null,
    result: async () => {
      const { document, issues } = ladderResult(spec!, read.units, {
        baseline: read.baseline,
        unitsFile: join(dir, "units.jsonl"),
        specFile: join(dir, "ladder.json"),
        inputs,
        command,
      });
      if (issues.length > 0 || document === null) {
        throw new GatelabError("Cannot decide the ladder gate", issues);
      }
      return {
        files: await ladderFiles(document, {
          validation: validationDocument([], command, inputs),
          scope,
          png: !values["no-png"],
          onMissingConverter: (line) => printError(line),
        }),
        details: prefillLines(document),
        summary: [summaryLine(document, out)],
      };
    },
  });
}

/** With a baseline: how many base-arm units the prefilled cache would have served. */
function prefillLines(document: LadderResultDocument): string[] {
  const p = document.prefill;
  return p
    ? [`  prefill: ${p.served}/${p.base_units} base-arm units served, ${p.saved} inferences saved`]
    : [];
}

/** The `ok:` line: the exit, its block, the counts and both e-values at the end. */
function summaryLine(document: LadderResultDocument, out: string): string {
  const c = document.counts;
  const last = document.blocks[document.blocks.length - 1];
  return `ok: ${document.task_type} exit ${document.exit ?? "none"}${
    document.exit_block === null ? "" : ` at block ${document.exit_block}`
  } (W ${c.W}, L ${c.L}, E ${c.E}, INFRA ${c.INFRA}; E accept ${
    last?.e_accept.toFixed(2)
  }, E reject ${last?.e_reject.toFixed(2)}); wrote ${out}/`;
}
