/**
 * gatelab command line: `deno task gate <command> ...` from the clone, or
 * `gate <command> ...` once installed (lib/cli/install.ts).
 *
 * Exit codes: 0 success, 2 input issues (written to validation.json where
 * the command has an --out) or a usage or path mistake (one line), 130 or
 * 143 when SIGINT or SIGTERM stopped the write of an output (left whole),
 * 1 crash. Commands come from the command table (lib/cli/command_table.ts);
 * each command module is imported only when called, so a command that
 * needs no SQL never starts DuckDB.
 *
 * @module
 */

import { printError, printLine } from "../core/terminal_text.ts";
import { listWords, UsageError } from "./args.ts";
import { nearestName } from "../core/nearest_name.ts";
import { PathError } from "../core/path_error.ts";
import { Interrupted } from "../core/interrupt.ts";
import { codeVersion, GATELAB_VERSION } from "../core/meta.ts";
import { COMMANDS } from "./command_table.ts";
import { DEFAULT_PROGRAM, groupHelp, INVOKED_AS } from "./help.ts";
import type { CommandContext, CommandDecl, CommandGroup } from "./option_decl.ts";

/** The commands and groups by the first word typed, in `gate --help` order. */
function topLevel(): Map<string, CommandDecl | CommandGroup> {
  const out = new Map<string, CommandDecl | CommandGroup>();
  for (const c of COMMANDS) {
    const entry = c.group ?? c;
    if (!out.has(entry.name)) out.set(entry.name, entry);
  }
  return out;
}

function usage(program: string): string {
  const entries = [...topLevel().values()];
  const width = Math.max(...entries.map((c) => c.name.length));
  return [
    `usage: ${program} <command> [args]`,
    "",
    ...entries.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Run \`${program} <command> --help\` for a command's options;`,
    `\`${program} --version\` prints the version.`,
  ].join("\n");
}

/**
 * Runs the CLI with the given arguments and returns the exit code.
 *
 * @param args The arguments after the program.
 * @param context How gatelab was started (the program name help and usage lines give).
 * @returns The exit code.
 */
export async function main(args: string[], context: CommandContext = {}): Promise<number> {
  const program = context.program ?? DEFAULT_PROGRAM;
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    printLine(usage(program));
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    // The release, then the code version every output records in generator.version.
    printLine(`gatelab ${GATELAB_VERSION}\ncode ${codeVersion()} (generator.version of outputs)`);
    return 0;
  }
  const entry = topLevel().get(name);
  if (entry === undefined) {
    const near = nearestName(name, [...topLevel().keys()]);
    printError(
      `usage_error  unknown command "${name}"${near ? `; did you mean ${near}?` : ""}` +
        `; see ${program} --help`,
    );
    return 2;
  }
  const found = "members" in entry ? subcommand(entry, rest, program) : { decl: entry, rest };
  if (typeof found === "number") return found;
  try {
    return await (await found.decl.load()).run(found.rest, { program });
  } catch (error) {
    if (error instanceof UsageError || error instanceof PathError) {
      printError(`${error instanceof PathError ? error.code : "usage_error"}  ${error.message}`);
      return 2;
    }
    if (error instanceof Interrupted) {
      // Ctrl-C or SIGTERM during a write: the output is whole (lib/core/interrupt.ts).
      printError(`interrupted  ${error.signal}: ${error.message}`);
      return error.exitCode;
    }
    printError(`gatelab ${name} crashed: ${error instanceof Error ? error.stack : error}`);
    return 1;
  }
}

/**
 * The command of a group named by the next word (`import table`), or the exit
 * code after printing the group's help (no word: 2, `--help`: 0) or refusing
 * an unknown word.
 */
function subcommand(
  group: CommandGroup,
  args: readonly string[],
  program: string,
): { decl: CommandDecl; rest: string[] } | number {
  const [word, ...rest] = args;
  if (word === undefined || word === "--help" || word === "-h") {
    printLine(groupHelp(group, program));
    return word === undefined ? 2 : 0;
  }
  const words = group.members.map((m) => m.name.slice(group.name.length + 1));
  const decl = COMMANDS.find((c) => c.name === `${group.name} ${word}`);
  if (decl === undefined) {
    const near = nearestName(word, words);
    printError(
      `usage_error  ${group.name}: unknown kind "${word}"${near ? `; did you mean ${near}?` : ""}` +
        ` (${listWords(words, "or")}); see ${program} ${group.name} --help`,
    );
    return 2;
  }
  return { decl, rest };
}

if (import.meta.main) {
  // `deno task` runs from the project root; resolve the user's relative
  // paths against the directory the task was started from (INIT_CWD).
  // (Run directly with narrower permissions, without --allow-env: no INIT_CWD.)
  const env = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state;
  const initCwd = env === "granted" ? Deno.env.get("INIT_CWD") : undefined;
  if (initCwd) Deno.chdir(initCwd);
  // The installed script names the program first; `deno task gate` passes nothing.
  const [first, ...rest] = Deno.args;
  const invoked = first?.startsWith(INVOKED_AS) ? first.slice(INVOKED_AS.length) : undefined;
  Deno.exit(
    await main(invoked === undefined ? Deno.args : rest, invoked ? { program: invoked } : {}),
  );
}
