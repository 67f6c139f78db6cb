/**
 * Command-line argument handling shared by every `deno task gate <command>`:
 * {@linkcode parseCommand} (options, `--help`, positionals, required
 * options) over the one keyword-option reader {@linkcode readOptions}, and
 * the value readers {@linkcode intOption}, {@linkcode numberOption},
 * {@linkcode choiceOption} and {@linkcode bootstrapOptions}. Every bad
 * usage is a {@linkcode UsageError}, which `lib/cli/main.ts` prints and turns
 * into exit code 2.
 *
 * @module
 */
import { nearestName } from "../core/nearest_name.ts";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { DEFAULTS } from "../core/defaults.ts";
import { conventionName } from "../core/conventions.ts";
import { printLine } from "../core/terminal_text.ts";

/** Thrown for bad command-line usage; the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Option declarations as node:util `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/** The `--help` / `-h` and `--quiet` flags every command gets from {@linkcode parseCommand}. */
type HelpOption = {
  readonly help: { readonly type: "boolean"; readonly short: "h" };
  readonly quiet: { readonly type: "boolean" };
};

/** Names of the single-valued string options of `T` (the ones that can be required). */
export type StringOptionName<T extends CommandOptions> = {
  [K in keyof T & string]: T[K] extends { type: "string"; multiple: true } ? never
    : T[K] extends { type: "string" } ? K
    : never;
}[keyof T & string];

type Parsed<T extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
>;

/** How many positional arguments a command takes, and what they are. */
export interface PositionalSpec {
  /** Fewest positionals. @default 0 */
  readonly min?: number;
  /** Most positionals. @default Infinity */
  readonly max?: number;
  /** What one positional is, for messages: `"gate directory"`. @default "argument" */
  readonly what?: string;
}

/** What {@linkcode parseCommand} checks for one command. */
export interface CommandSpec<T extends CommandOptions, R extends StringOptionName<T>> {
  /** Command name as typed after `deno task gate`: `"plan-power"`. */
  readonly name: string;
  /** Help text, printed for `--help`; usage errors point to it in one line. */
  readonly help: string;
  /**
   * How the user asks for the help, named at the end of every usage error.
   * @default {`deno task gate ${name}`}
   */
  readonly helpCommand?: string;
  /** Option declarations; `--help`/`-h` is added. */
  readonly options: T;
  /** Positional arguments; omitted means any number, unchecked. */
  readonly positionals?: PositionalSpec;
  /**
   * Required string options, each with the placeholder (and purpose) shown when it is
   * missing: `{ out: "<dir>" }` gives "needs --out <dir>". An empty value
   * counts as missing.
   * @default {}
   */
  readonly required?: { readonly [K in R]: string };
}

/** What {@linkcode parseCommand} returns unless `--help` was given. */
export interface ParsedCommand<T extends CommandOptions, R extends StringOptionName<T>> {
  /** Option values; the required ones are strings. */
  readonly values: Omit<Parsed<T & HelpOption>["values"], R> & { readonly [K in R]: string };
  /** Positional arguments in order. */
  readonly positionals: string[];
  /** The command line as outputs record it: `gate <name> <args...>`. */
  readonly command: string;
}

/**
 * Parses a command's arguments: option names and values (see
 * `normalizeArgs`: unknown options get a "did you mean", a value may start
 * with a dash), node:util's strict parser, then `--help` (prints the help
 * and returns `null`; the caller returns exit code 0), then the number of
 * positionals, then the required options. Every command also accepts
 * `--quiet` (print only the summary line).
 *
 * @param args The arguments after the command name.
 * @param spec The command's name, help, options, positionals and required options.
 * @returns `null` after printing the help, else the values (required ones
 *   present), the positionals and the recorded command line.
 * @throws {UsageError} For an unknown option, an option without its value,
 *   too few or too many positionals, or missing required options; the
 *   message is one line: what is wrong, then where the help is.
 *
 * @example Required option and positionals
 * ```ts
 * import { deepEqual, throws } from "node:assert/strict";
 * import { parseCommand, UsageError } from "./args.ts";
 *
 * const spec = {
 *   name: "study",
 *   help: "usage: deno task gate study <study_dir> --out <dir>",
 *   options: { out: { type: "string" }, quiet: { type: "boolean" } },
 *   positionals: { min: 1, max: 1, what: "study directory" },
 *   required: { out: "<dir>" },
 * } as const;
 * const parsed = parseCommand(["s1", "--out", "o"], spec);
 * deepEqual(parsed?.values.out, "o");
 * deepEqual(parsed?.positionals, ["s1"]);
 * deepEqual(parsed?.command, "gate study s1 --out o");
 * throws(() => parseCommand(["s1"], spec), UsageError);
 * throws(() => parseCommand(["s1", "s2", "--out", "o"], spec), /study takes one study directory/);
 * throws(() => parseCommand(["s1", "--outt", "o"], spec), /unknown option --outt; did you mean --out\?/);
 * ```
 *
 * @example `--help` prints the help and returns null
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { parseCommand } from "./args.ts";
 *
 * const log = console.log;
 * console.log = () => {};
 * try {
 *   equal(parseCommand(["--help"], { name: "x", help: "usage: x", options: {} }), null);
 * } finally {
 *   console.log = log;
 * }
 * ```
 */
export function parseCommand<T extends CommandOptions, R extends StringOptionName<T> = never>(
  args: string[],
  spec: CommandSpec<T, R>,
): ParsedCommand<T, R> | null {
  const { name, help } = spec;
  const see = seeHelp(name, spec.helpCommand);
  const options: T & HelpOption = { ...spec.options, ...HELP_OPTION };
  const parsed = readOptions(args, options, { name, helpCommand: spec.helpCommand });
  const values = parsed.values;
  if (Reflect.get(values, "help") === true) {
    printLine(help);
    return null;
  }
  const positionals = parsed.positionals;
  if (spec.positionals !== undefined) {
    const problem = positionalProblem(name, positionals.length, spec.positionals);
    if (problem !== null) throw new UsageError(`${problem}${see}`);
  }
  if (!requiredGiven(values, spec.required)) {
    const missing = missingOptions(values, spec.required)
      .map(([option, placeholder]) => `--${option} ${placeholder}`);
    throw new UsageError(`${name} needs ${listWords(missing)}${see}`);
  }
  return {
    values,
    positionals,
    command: ["gate", name, ...args].join(" "),
  };
}

const HELP_OPTION: HelpOption = {
  help: { type: "boolean", short: "h" },
  quiet: { type: "boolean" },
};

/** The required options (with their placeholders) that are missing or empty in `values`. */
function missingOptions(
  values: object,
  required: Readonly<Record<string, string>> | undefined,
): [string, string][] {
  return Object.entries(required ?? {}).filter(([option]) => {
    const value: unknown = Reflect.get(values, option);
    return value === undefined || value === "";
  });
}

/** True when every required option has a value: `values` then holds them as strings. */
function requiredGiven<V extends object, R extends string>(
  values: V,
  required: { readonly [K in R]: string } | undefined,
): values is V & { readonly [K in R]: string } {
  return missingOptions(values, required).length === 0;
}

/** "; see deno task gate analyze --help": the tail of every usage error. */
function seeHelp(name: string, helpCommand: string | undefined): string {
  return `; see ${helpCommand ?? `deno task gate ${name}`} --help`;
}

/**
 * The one keyword-option reader of the command line: checks every option
 * name against the declarations (an unknown one is named with the nearest
 * known one), reads values that start with a dash, then runs node:util's
 * strict parser. {@linkcode parseCommand} uses it for every `gate`
 * command; `deno task lab` and `deno task demo` use it directly.
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
  const see = seeHelp(context.name, context.helpCommand);
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
function positionalProblem(name: string, count: number, spec: PositionalSpec): string | null {
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

/** "a", "a and b", "a, b and c" (or "a, b or c"). */
function listWords(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Bounds for {@linkcode intOption} and {@linkcode numberOption}. */
export interface RangeOptions {
  /** Smallest allowed value. @default -Infinity */
  readonly min?: number;
  /** Largest allowed value. @default Infinity */
  readonly max?: number;
}

/**
 * Parses an integer option (JavaScript `Number` syntax, a safe integer)
 * within an optional range.
 *
 * @param name The option name without dashes, for messages.
 * @param value The option's text, or `undefined` when it was not given.
 * @param fallback Returned when `value` is `undefined` (may be `undefined`).
 * @param options Range: `min`, `max` (inclusive).
 * @returns The integer, or `fallback`.
 * @throws {UsageError} When the text is not an integer or out of range:
 *   `--cap must be a positive integer, got "0"`.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { intOption } from "./args.ts";
 *
 * equal(intOption("seed", "42", 1), 42);
 * equal(intOption("seed", undefined, 1), 1);
 * equal(intOption("budget-k", undefined, undefined), undefined);
 * throws(() => intOption("cap", "0", 50, { min: 1 }), /--cap must be a positive integer, got "0"/);
 * throws(() => intOption("seed", "1.5", 1), /--seed must be an integer/);
 * ```
 */
export function intOption<F extends number | undefined>(
  name: string,
  value: string | undefined,
  fallback: F,
  options: RangeOptions = {},
): number | F {
  return value === undefined ? fallback : rangedNumber("integer", name, value, options);
}

/**
 * Parses a finite number option (JavaScript `Number` syntax) within an
 * optional range.
 *
 * @param name The option name without dashes, for messages.
 * @param value The option's text, or `undefined` when it was not given.
 * @param fallback Returned when `value` is `undefined` (may be `undefined`).
 * @param options Range: `min`, `max` (inclusive).
 * @returns The number, or `fallback`.
 * @throws {UsageError} When the text is not a finite number or out of range.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { numberOption } from "./args.ts";
 *
 * equal(numberOption("p-present", "0.5", undefined), 0.5);
 * equal(numberOption("p-present", undefined, 0.25), 0.25);
 * throws(() => numberOption("resid-sd", "abc", 1), /--resid-sd must be a number, got "abc"/);
 * throws(() => numberOption("p", "2", 0.5, { min: 0, max: 1 }), /a number in \[0, 1\]/);
 * ```
 */
export function numberOption<F extends number | undefined>(
  name: string,
  value: string | undefined,
  fallback: F,
  options: RangeOptions = {},
): number | F {
  return value === undefined ? fallback : rangedNumber("number", name, value, options);
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
 * Parses an option that takes one of a few words.
 *
 * @param name The option name without dashes, for messages.
 * @param value The option's text, or `undefined` when it was not given.
 * @param choices The allowed words.
 * @param fallback Returned when `value` is `undefined`.
 * @returns The word, or `fallback`.
 * @throws {UsageError} When the word is not one of `choices`:
 *   `--interval must be percentile or bca, got "x"`.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { choiceOption } from "./args.ts";
 *
 * equal(choiceOption("interval", undefined, ["percentile", "bca"], "percentile"), "percentile");
 * equal(choiceOption("interval", "bca", ["percentile", "bca"], "percentile"), "bca");
 * throws(() => choiceOption("order", "x", ["run", "task", "random"], "run"),
 *   { message: `--order must be run, task or random, got "x"` });
 * ```
 */
export function choiceOption<C extends string, F extends C | undefined>(
  name: string,
  value: string | undefined,
  choices: readonly C[],
  fallback: F,
): C | F {
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be ${listWords(choices, "or")}, got "${value}"`);
  }
  return value as C;
}

/**
 * Parses an option that names a convention of lib/core/conventions.ts
 * (`--cov`, `--interval`): any case is accepted, the canonical lowercase name
 * is returned (and recorded in outputs).
 *
 * @param name The option name without dashes, for messages.
 * @param value The option's text, or `undefined` when it was not given.
 * @param names The table's names (`COV_TYPES`, `INTERVAL_NAMES`).
 * @param fallback Returned when `value` is `undefined`.
 * @returns The canonical name, or `fallback`.
 * @throws {UsageError} When the word is none of `names` in any case:
 *   `--interval must be percentile or bca, got "x"`.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { conventionOption } from "./args.ts";
 * import { COV_TYPES, INTERVAL_NAMES } from "../core/conventions.ts";
 *
 * equal(conventionOption("interval", "BCA", INTERVAL_NAMES, "percentile"), "bca");
 * equal(conventionOption("cov", "Hc1", COV_TYPES, "hc3"), "hc1");
 * equal(conventionOption("cov", undefined, COV_TYPES, "hc3"), "hc3");
 * throws(() => conventionOption("cov", "cr1", COV_TYPES, "hc3"),
 *   { message: `--cov must be hc0, hc1, hc2 or hc3, got "cr1"` });
 * ```
 */
export function conventionOption<N extends string, F extends N>(
  name: string,
  value: string | undefined,
  names: readonly N[],
  fallback: F,
): N {
  if (value === undefined) return fallback;
  const found = conventionName(names, value);
  if (found === undefined) {
    throw new UsageError(`--${name} must be ${listWords(names, "or")}, got "${value}"`);
  }
  return found;
}

/**
 * Reads `--bootstrap B` and `--seed S` the same way for every command that
 * resamples: B an integer >= `minDraws` (default `DEFAULTS.draws`), S a
 * non-negative integer (default `DEFAULTS.seed`).
 *
 * @param values The command's option values.
 * @param options `draws`: the command's default B; `minDraws`: the fewest draws.
 * @returns Draws and seed.
 * @throws {UsageError} As {@linkcode intOption}.
 *
 * @example
 * ```ts
 * import { deepEqual, throws } from "node:assert/strict";
 * import { bootstrapOptions } from "./args.ts";
 *
 * deepEqual(bootstrapOptions({}), { draws: 10000, seed: 20260927 });
 * deepEqual(bootstrapOptions({ bootstrap: "0", seed: "7" }), { draws: 0, seed: 7 });
 * throws(() => bootstrapOptions({ bootstrap: "0" }, { minDraws: 1 }), /--bootstrap must be a positive integer/);
 * throws(() => bootstrapOptions({ seed: "-3" }), /--seed must be a non-negative integer, got "-3"/);
 * ```
 */
export function bootstrapOptions(
  values: { readonly bootstrap?: string | undefined; readonly seed?: string | undefined },
  options: { readonly draws?: number; readonly minDraws?: number } = {},
): { draws: number; seed: number } {
  return {
    draws: intOption("bootstrap", values.bootstrap, options.draws ?? DEFAULTS.draws, {
      min: options.minDraws ?? 0,
    }),
    seed: seedOption(values.seed),
  };
}

/**
 * Reads `--seed S`: a non-negative integer, default `DEFAULTS.seed`.
 *
 * @param value The option's text, or `undefined`.
 * @returns The seed.
 * @throws {UsageError} As {@linkcode intOption}.
 */
export function seedOption(value: string | undefined): number {
  return intOption("seed", value, DEFAULTS.seed, { min: 0 });
}
