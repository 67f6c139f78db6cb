/**
 * Command-line argument handling shared by every `gate` command:
 * {@linkcode parseCommand} (options, `--help`, positionals, required
 * options, typed values) by a command's declaration in the command table,
 * over the one keyword-option reader {@linkcode readOptions}, and the value
 * readers the table's options name ({@linkcode integerReader},
 * {@linkcode numberReader}, {@linkcode choiceReader},
 * {@linkcode conventionReader}). Every bad usage is a
 * {@linkcode UsageError}, which `lib/cli/main.ts` prints and turns into
 * exit code 2.
 *
 * @module
 */
import { printLine } from "../core/terminal_text.ts";
import { nearestName } from "../core/nearest_name.ts";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { conventionName } from "../core/conventions.ts";
import { commandHelp, DEFAULT_PROGRAM } from "./help.ts";
import type {
  CommandContext,
  CommandSpec,
  OptionDecl,
  OptionReader,
  PositionalDecl,
  Values,
} from "./option_decl.ts";

/** Thrown for bad command-line usage; the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Option declarations as node:util `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

type Parsed<T extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
>;

/** What {@linkcode parseCommand} returns unless `--help` was given. */
export interface ParsedCommand<D extends CommandSpec> {
  /** Option values, read and typed by the declaration (see {@linkcode Values}). */
  readonly values: Values<D>;
  /** Positional arguments in order. */
  readonly positionals: string[];
  /** The command line as outputs record it: `gate <name> <args...>`. */
  readonly command: string;
  /** A usage error of this command: the message, then where its help is. */
  usageError(message: string): UsageError;
}

/**
 * Parses a command's arguments by its declaration: option names and values
 * (see `normalizeArgs`: unknown options get a "did you mean", a value may
 * start with a dash), node:util's strict parser, then `--help`/`-h`
 * (prints the help written from the declaration and returns `null`; the
 * caller returns exit code 0), then the number of positionals, then the
 * required options, then each option's reader in the declaration's order
 * (defaults for those not given).
 *
 * @param args The arguments after the command name.
 * @param decl The command's declaration (lib/cli/commands.ts).
 * @param context How gatelab was started: the program name its help and usage errors give.
 * @returns `null` after printing the help, else the read values, the
 *   positionals and the recorded command line.
 * @throws {UsageError} For an unknown option, an option without its value,
 *   too few or too many positionals, missing required options or a bad
 *   value; the message is one line: what is wrong, then (for the shape of
 *   the command line) where the help is.
 *
 * @example Required option, positionals and a read value
 * ```ts
 * import { deepEqual, throws } from "node:assert/strict";
 * import { integerReader, parseCommand, UsageError } from "./args.ts";
 *
 * const decl = {
 *   name: "study",
 *   synopsis: "<study_dir> --out <dir>",
 *   options: [
 *     { name: "out", type: "string", placeholder: "<dir>", help: "output directory" },
 *     { name: "cap", type: "string", help: "at most", default: 50, read: integerReader({ min: 1 }) },
 *   ],
 *   positionals: { min: 1, max: 1, what: "study directory" },
 *   required: ["out"],
 * } as const;
 * const parsed = parseCommand(["s1", "--out", "o"], decl);
 * deepEqual([parsed?.values.out, parsed?.values.cap], ["o", 50]);
 * deepEqual(parsed?.positionals, ["s1"]);
 * deepEqual(parsed?.command, "gate study s1 --out o");
 * throws(() => parseCommand(["s1"], decl), UsageError);
 * throws(() => parseCommand(["s1", "s2", "--out", "o"], decl), /study takes one study directory/);
 * throws(() => parseCommand(["s1", "--outt", "o"], decl), /unknown option --outt; did you mean --out\?; see deno task gate study --help/);
 * throws(() => parseCommand(["s1", "--outt", "o"], decl, { program: "gate" }), /; see gate study --help$/);
 * throws(() => parseCommand(["s1", "--out", "o", "--cap", "0"], decl), /--cap must be a positive integer, got "0"/);
 * ```
 *
 * @example `--help` prints the help and returns null
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { parseCommand } from "./args.ts";
 *
 * const log = console.log;
 * const printed: string[] = [];
 * console.log = (line: string) => printed.push(line);
 * try {
 *   equal(parseCommand(["--help"], { name: "x", synopsis: "", options: [] }, { program: "gate" }), null);
 * } finally {
 *   console.log = log;
 * }
 * equal(printed.join("\n"), "usage: gate x");
 * ```
 */
export function parseCommand<D extends CommandSpec>(
  args: readonly string[],
  decl: D,
  context: CommandContext = {},
): ParsedCommand<D> | null {
  const { name } = decl;
  const program = context.program ?? DEFAULT_PROGRAM;
  const helpCommand = `${program} ${decl.group?.name ?? name}`;
  const see = seeHelp(helpCommand);
  const parsed = readOptions(args, parserOptions(decl.options), { name, helpCommand });
  const values: Readonly<Record<string, unknown>> = parsed.values;
  if (values.help === true) {
    printLine(commandHelp(decl, program));
    return null;
  }
  const positionals = parsed.positionals;
  if (decl.positionals !== undefined) {
    const problem = positionalProblem(name, positionals.length, decl.positionals);
    if (problem !== null) throw new UsageError(`${problem}${see}`);
  }
  const missing = (decl.required ?? []).filter((option) =>
    values[option] === undefined || values[option] === ""
  );
  if (missing.length > 0) {
    const named = missing.map((option) => {
      const o = decl.options.find((d) => d.name === option);
      return `--${option} ${o?.requiredAs ?? o?.placeholder ?? "<value>"}`;
    });
    throw new UsageError(`${name} needs ${listWords(named)}${see}`);
  }
  return {
    values: readValues(decl.options, values) as Values<D>,
    positionals,
    command: ["gate", name, ...args].join(" "),
    usageError: (message) => new UsageError(`${message}${see}`),
  };
}

/** node:util's declarations of the options, with `--help`/`-h`. */
function parserOptions(options: readonly OptionDecl[]): CommandOptions {
  const out: CommandOptions = { help: { type: "boolean", short: "h" } };
  for (const o of options) {
    out[o.name] = {
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.short !== undefined ? { short: o.short } : {}),
    };
  }
  return out;
}

/**
 * Each option's value in declaration order: a flag is true or false, a
 * repeatable option its list, an option not given its default (or
 * undefined), a given one its reader's value (or its text).
 */
function readValues(
  options: readonly OptionDecl[],
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const given = values[o.name];
    if (o.type === "boolean") out[o.name] = given === true;
    else if (o.multiple) out[o.name] = given ?? [];
    else if (typeof given !== "string") out[o.name] = o.default;
    else out[o.name] = o.read === undefined ? given : o.read(o.name, given);
  }
  return out;
}

/** "; see deno task gate analyze --help": the tail of every usage error. */
function seeHelp(helpCommand: string): string {
  return `; see ${helpCommand} --help`;
}

/**
 * The one keyword-option reader of the command line: checks every option
 * name against the declarations (an unknown one is named with the nearest
 * known one), reads values that start with a dash, then runs node:util's
 * strict parser. {@linkcode parseCommand} uses it for every `gate`
 * command; `deno task lab` uses it directly.
 *
 * @param args The arguments after the command name.
 * @param options Option declarations (node:util `parseArgs` form).
 * @param context The command's name, and how its help is asked for
 *   (default `deno task gate <name>`).
 * @returns node:util's values and positionals.
 * @throws {UsageError} One line: what is wrong, then where the help is.
 *
 * @example
 * ```ts
 * import { readOptions } from "./args.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * const options = { port: { type: "string" }, "no-browser": { type: "boolean" } } as const;
 * deepEqual(readOptions(["--port", "8890"], options, { name: "lab" }).values.port, "8890");
 * throws(
 *   () => readOptions(["--prot", "1"], options, { name: "lab", helpCommand: "deno task lab" }),
 *   { message: "lab: unknown option --prot; did you mean --port?; see deno task lab --help" },
 * );
 * ```
 */
export function readOptions<T extends CommandOptions>(
  args: readonly string[],
  options: T,
  context: { readonly name: string; readonly helpCommand?: string | undefined },
): Parsed<T> {
  const see = seeHelp(context.helpCommand ?? `${DEFAULT_PROGRAM} ${context.name}`);
  const normalized = normalizeArgs(context.name, args, options, see);
  try {
    return parseArgs({ args: normalized, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    throw new UsageError(`${context.name}: ${message}${see}`);
  }
}

/**
 * Checks every option name and gives each string option its value as
 * `--name=value`, so a value that starts with a dash (`--bootstrap -5`,
 * `--seed -3`) is read as the value, exactly like `--bootstrap=-5`. Unknown
 * options are named with the nearest known one; a string option followed by
 * nothing or by another option "needs a value"; a flag given a value "takes
 * no value". Everything after `--` is positional.
 */
function normalizeArgs(
  command: string,
  args: readonly string[],
  options: CommandOptions,
  see: string,
): string[] {
  const long = new Map(Object.entries(options));
  const short = new Map(
    Object.entries(options).flatMap(([n, o]) => (o.short ? [[o.short, n] as const] : [])),
  );
  const isOption = (token: string): boolean =>
    (token.startsWith("--") && long.has(token.slice(2).split("=")[0]!)) ||
    (/^-[A-Za-z]$/.test(token) && short.has(token.slice(1)));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === "--") {
      out.push(...args.slice(i));
      break;
    }
    let name: string, inline: string | undefined;
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      inline = eq < 0 ? undefined : token.slice(eq + 1);
      if (!long.has(name)) {
        const near = nearestName(name, [...long.keys()]);
        throw new UsageError(
          `${command}: unknown option --${name}${near ? `; did you mean --${near}?` : ""}${see}`,
        );
      }
    } else if (/^-[A-Za-z]/.test(token)) {
      const letter = token.slice(1, 2);
      const full = short.get(letter);
      if (full === undefined) throw new UsageError(`${command}: unknown option -${letter}${see}`);
      name = full;
      inline = token.length > 2 ? token.slice(2).replace(/^=/, "") : undefined;
    } else {
      out.push(token);
      continue;
    }
    const type = long.get(name)!.type;
    if (type === "boolean") {
      if (inline !== undefined) throw new UsageError(`${command}: --${name} takes no value${see}`);
      out.push(`--${name}`);
      continue;
    }
    if (inline === undefined) {
      const next = args[i + 1];
      if (next === undefined || isOption(next)) {
        throw new UsageError(`${command}: --${name} needs a value${see}`);
      }
      inline = next;
      i++;
    }
    out.push(`--${name}=${inline}`);
  }
  return out;
}

/** "validate needs at least one gate directory", or null when the count fits. */
function positionalProblem(name: string, count: number, spec: PositionalDecl): string | null {
  const min = spec.min ?? 0, max = spec.max ?? Infinity, what = spec.what ?? "argument";
  if (count >= min && count <= max) return null;
  if (max === 0) return `${name} takes no positional arguments`;
  if (min === max) return `${name} takes ${countWords(min, what)}`;
  if (count < min) return `${name} needs at least ${countWords(min, what)}`;
  return `${name} takes at most ${countWords(max, what)}`;
}

/** "one gate directory", "2 gate directories". */
function countWords(n: number, what: string): string {
  if (n === 1) return `one ${what}`;
  return `${n} ${/[^aeiou]y$/.test(what) ? `${what.slice(0, -1)}ies` : `${what}s`}`;
}

/**
 * "a", "a and b", "a, b and c" (or "a, b or c").
 *
 * @example
 * ```ts
 * import { listWords } from "./args.ts";
 * import { equal } from "node:assert/strict";
 * equal(listWords(["table", "inspect"], "or"), "table or inspect");
 * equal(listWords(["--a", "--b", "--c"]), "--a, --b and --c");
 * ```
 */
export function listWords(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Bounds for {@linkcode integerReader} and {@linkcode numberReader}. */
export interface RangeOptions {
  /** Smallest allowed value. @default -Infinity */
  readonly min?: number;
  /** Largest allowed value. @default Infinity */
  readonly max?: number;
}

/** `Number(value)`, checked to be a safe integer or finite number within the range. */
function rangedNumber(
  kind: "integer" | "number",
  name: string,
  value: string,
  options: RangeOptions,
): number {
  const n = Number(value);
  const { min = -Infinity, max = Infinity } = options;
  const typed = kind === "integer" ? Number.isSafeInteger(n) : Number.isFinite(n);
  if (!typed || n < min || n > max) {
    throw new UsageError(`--${name} must be ${rangeWords(kind, min, max)}, got "${value}"`);
  }
  return n;
}

/** "a non-negative integer", "a positive integer", "an integer >= 2", "a number in [0, 1]". */
function rangeWords(kind: "integer" | "number", min: number, max: number): string {
  const article = kind === "integer" ? "an" : "a";
  if (min === -Infinity && max === Infinity) return `${article} ${kind}`;
  if (max === Infinity) {
    if (min === 0) return `a non-negative ${kind}`;
    if (min === 1 && kind === "integer") return "a positive integer";
    return `${article} ${kind} >= ${min}`;
  }
  if (min === -Infinity) return `${article} ${kind} <= ${max}`;
  return `${article} ${kind} in [${min}, ${max}]`;
}

/**
 * The reader of an integer option (JavaScript `Number` syntax, a safe
 * integer) within an optional range, for the command table.
 *
 * @param range `min`, `max` (inclusive).
 * @returns The reader.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { integerReader } from "./args.ts";
 * equal(integerReader({ min: 0 })("seed", "42"), 42);
 * throws(() => integerReader({ min: 0 })("seed", "-3"), { message: `--seed must be a non-negative integer, got "-3"` });
 * ```
 */
export function integerReader(range: RangeOptions = {}): OptionReader<number> {
  return (name, text) => rangedNumber("integer", name, text, range);
}

/**
 * The reader of a finite number option within an optional range; with
 * `open`, the bounds themselves are refused too (after the range check).
 *
 * @param range `min`, `max` (inclusive unless `open`).
 * @returns The reader.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { numberReader } from "./args.ts";
 * equal(numberReader({ min: 0, max: 1 })("alpha", "0.1"), 0.1);
 * throws(() => numberReader({ min: 0, max: 1 })("alpha", "2"), /--alpha must be a number in \[0, 1\]/);
 * throws(() => numberReader({ min: 0, max: 1, open: true })("alpha", "0.0"), { message: `--alpha must be in (0, 1), got "0.0"` });
 * throws(() => numberReader({ min: 0, open: true })("phi", "0"), { message: `--phi must be positive, got "0"` });
 * ```
 */
export function numberReader(
  range: RangeOptions & { readonly open?: boolean } = {},
): OptionReader<number> {
  const { min = -Infinity, max = Infinity } = range;
  return (name, text) => {
    const value = rangedNumber("number", name, text, range);
    if (range.open && (value === min || value === max)) {
      const words = min === 0 && max === Infinity ? "positive" : `in (${min}, ${max})`;
      throw new UsageError(`--${name} must be ${words}, got "${text}"`);
    }
    return value;
  };
}

/**
 * The reader of an option that takes one of a few words, exactly as written.
 *
 * @param choices The allowed words.
 * @returns The reader.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { choiceReader } from "./args.ts";
 * equal(choiceReader(["A", "B", "C"])("recipe", "B"), "B");
 * throws(() => choiceReader(["A", "B", "C"])("recipe", "D"), { message: `--recipe must be A, B or C, got "D"` });
 * ```
 */
export function choiceReader<C extends string>(choices: readonly C[]): OptionReader<C> {
  return (name, text) => {
    const found = choices.find((c) => c === text);
    if (found === undefined) {
      throw new UsageError(`--${name} must be ${listWords(choices, "or")}, got "${text}"`);
    }
    return found;
  };
}

/**
 * The reader of an option that names a convention of lib/core/conventions.ts
 * (`--cov`, `--interval`): any case, read as the canonical name.
 *
 * @param names The table's names.
 * @returns The reader.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { conventionReader } from "./args.ts";
 * import { INTERVAL_NAMES } from "../core/conventions.ts";
 * equal(conventionReader(INTERVAL_NAMES)("interval", "BCa"), "bca");
 * ```
 */
export function conventionReader<N extends string>(names: readonly N[]): OptionReader<N> {
  return (name, text) => {
    const found = conventionName(names, text);
    if (found === undefined) {
      throw new UsageError(`--${name} must be ${listWords(names, "or")}, got "${text}"`);
    }
    return found;
  };
}
