/**
 * The help texts of `gate` and its commands, written from the command
 * table: the usage lines, the command's paragraphs, one line per option
 * (flag, placeholder, help and default) and the closing notes.
 *
 * @module
 */
import type { CommandGroup, CommandSpec, OptionDecl } from "./option_decl.ts";

/** The program name help and usage lines use unless told otherwise: the clone's task. */
export const DEFAULT_PROGRAM = "deno task gate";

/**
 * How the installed `gate` script (lib/cli/install.ts) names its program:
 * its first argument is `--invoked-as=gate`, which lib/cli/main.ts reads
 * before the command, so help and usage lines say `gate ...`. `deno task
 * gate` passes none and reads `deno task gate ...`; no permission is needed.
 */
export const INVOKED_AS = "--invoked-as=";

/**
 * The `--help` text of a command: usage line, about, options, notes. A
 * command of a group prints the group's help ({@linkcode groupHelp}).
 *
 * @param decl The command's declaration.
 * @param program How the user started gatelab: `"gate"` or `"deno task gate"`.
 * @returns The text (no trailing newline).
 *
 * @example
 * ```ts
 * import { commandHelp } from "./help.ts";
 * import { equal } from "node:assert/strict";
 * const decl = {
 *   name: "thing", synopsis: "<dir> --out <dir>", about: "Does a thing.", width: 12,
 *   options: [
 *     { name: "out", type: "string", placeholder: "<dir>", help: "output directory (required)" },
 *     { name: "cap", type: "string", placeholder: "<n>", help: "at most n", default: 5 },
 *   ],
 * } as const;
 * equal(commandHelp(decl, "gate"), [
 *   "usage: gate thing <dir> --out <dir>", "", "Does a thing.", "",
 *   "  --out <dir> output directory (required)", "  --cap <n>   at most n (default 5)",
 * ].join("\n"));
 * ```
 */
export function commandHelp(decl: CommandSpec, program: string = DEFAULT_PROGRAM): string {
  if (decl.group !== undefined) return groupHelp(decl.group, program);
  return sections([
    `usage: ${usageForm(program, decl)}`,
    decl.about,
    optionLines(decl.options, decl.width ?? 0),
    decl.notes,
  ]);
}

/**
 * The one help text of a group of commands (`gate import`): each member's
 * usage line, the group's paragraph, one line per member, the options of all.
 *
 * @param group The group.
 * @param program How the user started gatelab.
 * @returns The text.
 */
export function groupHelp(group: CommandGroup, program: string = DEFAULT_PROGRAM): string {
  const { members } = group;
  const usage = members.map((m, i) => `${i === 0 ? "usage: " : "       "}${usageForm(program, m)}`);
  const subcommands = members.map((m) =>
    helpLine(m.name.slice(group.name.length + 1), m.summary, group.subcommandWidth)
  );
  const seen = new Set<string>();
  const options = members.flatMap((m) => m.options).filter((o) => {
    if (seen.has(o.name)) return false;
    seen.add(o.name);
    return true;
  });
  return sections([
    usage.join("\n"),
    group.about,
    subcommands.join("\n"),
    optionLines(options, group.width),
  ]);
}

/**
 * The help line of one option: `  --name <placeholder>` padded to `width`,
 * its help and ` (default X)`; further lines of the help under the first.
 *
 * @param option The option.
 * @param width The column its help starts at (the option's own `width` wins).
 * @returns One or more lines.
 *
 * @example
 * ```ts
 * import { optionLine } from "./help.ts";
 * import { equal } from "node:assert/strict";
 * equal(optionLine({ name: "seed", type: "string", placeholder: "<S>", help: "bootstrap seed", default: 1 }, 12),
 *   "  --seed <S>  bootstrap seed (default 1)");
 * equal(optionLine({ name: "no-png", type: "boolean", help: "skip PNG copies\nof the figures" }, 10),
 *   "  --no-png  skip PNG copies\n            of the figures");
 * ```
 */
export function optionLine(option: OptionDecl, width: number): string {
  const flag = `--${option.name}${
    option.placeholder === undefined ? "" : ` ${option.placeholder}`
  }`;
  const help = option.default === undefined
    ? option.help
    : `${option.help} (default ${option.default})`;
  return helpLine(flag, help, option.width ?? width);
}

/** The usage form `program name synopsis` (an empty synopsis adds nothing). */
function usageForm(program: string, decl: Pick<CommandSpec, "name" | "synopsis">): string {
  return [program, decl.name, decl.synopsis].filter((s) => s !== "").join(" ");
}

/** One help line per option not shown in the usage lines only, or "" when there is none. */
function optionLines(options: readonly OptionDecl[], width: number): string {
  return options.filter((o) => o.usageOnly !== true).map((o) => optionLine(o, width)).join("\n");
}

/**
 * `  term` padded to `width` (two spaces after a longer term), then the text;
 * the text's further lines start at the same column.
 */
function helpLine(term: string, text: string, width: number): string {
  const [first, ...rest] = text.split("\n");
  const head = term.length < width ? term.padEnd(width) : `${term}  `;
  const indent = " ".repeat(2 + width);
  return [`  ${head}${first}`, ...rest.map((line) => `${indent}${line}`)].join("\n");
}

/** The non-empty sections, one blank line between two. */
function sections(parts: readonly (string | undefined)[]): string {
  return parts.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
}
