/**
 * The shape of the command table (lib/cli/commands.ts, lib/cli/command_table.ts):
 * what one option and one command declare, and the type of the values a
 * command's declaration gives after parsing ({@linkcode Values}), so no
 * command hand-types its options. Types only.
 *
 * @module
 */

/** What an option's value is: a study build reads its steps' inputs and outputs from it. */
export type OptionRole = "input" | "output" | "value";

/**
 * Reads an option's text into its typed value; a bad text is a
 * `UsageError` naming the option. Called only when the option is given.
 */
export type OptionReader<T> = (name: string, text: string) => T;

/** One option of a command. */
export interface OptionDecl {
  /** Flag without dashes: `"bootstrap"`, `"label-prefix"`. Also the key in a study file. */
  readonly name: string;
  readonly type: "string" | "boolean";
  /** Repeatable (`--texts a --texts b`): the value is the list, empty when not given. */
  readonly multiple?: boolean;
  /** One-letter alias (`-q`). */
  readonly short?: string;
  /**
   * What the value is: `input` a file or directory the command reads,
   * `output` one it writes (`--out`, `--ledger`), `value` anything else.
   * @default {"value"}
   */
  readonly role?: OptionRole;
  /** What the value looks like in the help: `"<dir>"`, `"<B>"`, `"K"`. */
  readonly placeholder?: string;
  /** Its help, one line or several (`\n`); the help line adds ` (default X)` after it. */
  readonly help: string;
  /**
   * The value when the option is not given, as the help shows it. An option
   * whose default takes a sentence says it in `help` and leaves this out.
   */
  readonly default?: string | number | boolean;
  /** Reads the text into a typed value (an integer, a choice); absent: the text itself. */
  readonly read?: OptionReader<unknown>;
  /**
   * How a missing required option is named in the refusal, when not by its
   * placeholder: `"<plan.json>"` gives "heldout needs --plan <plan.json>".
   */
  readonly requiredAs?: string;
  /** Shown in the command's usage lines only, without a help line of its own. */
  readonly usageOnly?: boolean;
  /**
   * The column its help starts at when it is not the command's own
   * (`--label-prefix` keeps one layout in every command).
   */
  readonly width?: number;
}

/** The positional arguments of a command. */
export interface PositionalDecl {
  /** Fewest positionals. @default {0} */
  readonly min?: number;
  /** Most positionals. @default {Infinity} */
  readonly max?: number;
  /** What one positional is, for messages: `"gate directory"`. @default {"argument"} */
  readonly what?: string;
  /** What they are for a study build (see {@linkcode OptionRole}). @default {"input"} */
  readonly role?: "input" | "value";
}

/** How a command was started: the name its help and usage lines give it. */
export interface CommandContext {
  /**
   * The command as the user typed it before the command's name: `"gate"` when
   * installed (lib/cli/install.ts), `"deno task gate"` from the clone.
   * @default {"deno task gate"}
   */
  readonly program?: string;
}

/** A loaded command module: runs the command on its arguments and returns the exit code. */
export interface CommandModule {
  run(args: string[], context?: CommandContext): Promise<number>;
}

/** Commands that share a first word and one help text (`gate import table|inspect`). */
export interface CommandGroup {
  /** The shared first word: `"import"`. */
  readonly name: string;
  /** Its line in `gate --help`. */
  readonly summary: string;
  /** The paragraph after the usage lines. */
  readonly about: string;
  /** The column the options' help starts at. */
  readonly width: number;
  /** The column each subcommand's description starts at. */
  readonly subcommandWidth: number;
  /** Its commands in help order (each without its `group`). */
  readonly members: readonly (CommandSpec & { readonly summary: string })[];
}

/**
 * One command as declared (lib/cli/commands.ts): everything its parsing and
 * help need, without how to load it.
 */
export interface CommandSpec {
  /** As typed after the program: `"analyze"`, `"plan-power"`, `"import table"`. */
  readonly name: string;
  /** Its line in `gate --help` (in a group: its description in the group's help). */
  readonly summary?: string;
  /** What follows the name in the usage line (lines of its own may continue it). */
  readonly synopsis: string;
  /** The paragraphs between the usage line and the options. */
  readonly about?: string;
  /** The column the options' help starts at. */
  readonly width?: number;
  /** Positional arguments; absent: any number, unchecked. */
  readonly positionals?: PositionalDecl;
  /** Every option the command takes, the common ones included, in help order. */
  readonly options: readonly OptionDecl[];
  /** Names of the options that must be given (an empty value counts as missing). */
  readonly required?: readonly string[];
  /** The paragraphs after the options. */
  readonly notes?: string;
  /** The group whose help and first word it shares. */
  readonly group?: CommandGroup;
}

/** One command of the table (lib/cli/command_table.ts): its declaration and how to load it. */
export interface CommandDecl extends CommandSpec {
  readonly summary: string;
  /** Imports the command's module (only when it runs). */
  readonly load: () => Promise<CommandModule>;
}

/** The parsed value of option `O` (`required`: the command cannot run without it). */
type OptionValue<O extends OptionDecl, Required extends boolean> = O extends
  { readonly read: OptionReader<infer T> }
  ? (Required extends true ? T : O extends { readonly default: unknown } ? T : T | undefined)
  : O extends { readonly type: "boolean" } ? boolean
  : O extends { readonly multiple: true } ? readonly string[]
  : Required extends true ? string
  : O extends { readonly default: string } ? string
  : string | undefined;

/**
 * The option values of a command after parsing: read values (numbers,
 * choices) with their defaults, flags as booleans, repeatable options as
 * lists, required options present.
 */
export type Values<D extends Pick<CommandSpec, "options" | "required">> = {
  readonly [O in D["options"][number] as O["name"]]: OptionValue<
    O,
    O["name"] extends NonNullable<D["required"]>[number] ? true : false
  >;
};
