/**
 * What a study file may say to each gatelab command: the commands a step
 * or an import runs, their positional arguments and their options (named
 * exactly as the command-line flags, without dashes), and the role of each
 * (an input the command reads, the output it writes, or a plain value).
 *
 * This file is the one place lib/build learns these facts. They are the
 * command modules' own declarations (lib/cli/<command>.ts), with the roles
 * added; tests/build_command_options_test.ts holds every entry to the
 * command it names (each option is accepted with its type, every flag of
 * the command's `--help` is here). When the command table of lib/cli lands,
 * this adapter reads it instead.
 *
 * @module
 */

/** What an option's value is to a build. */
export type OptionRole = "input" | "output" | "value";

/** One option of a command. */
export interface OptionFact {
  /** The flag without dashes, also the key in gatelab.yaml: `"bootstrap"`, `"label-prefix"`. */
  readonly name: string;
  /** `string`: takes a value; `boolean`: a flag (`true` in the study file). */
  readonly type: "string" | "boolean";
  /** Repeatable (`--texts a --texts b`; a list in the study file). */
  readonly multiple?: boolean;
  /**
   * `input`: a file or directory the command reads (a path, an import's
   * gate or another step's output; hashed into the step's key);
   * `output`: written by the command (`--out` is set by the build);
   * `value`: anything else. @default "value"
   */
  readonly role?: OptionRole;
  /** A value that names a path (resolved against the study file) without being an input (`--cache`). */
  readonly path?: boolean;
}

/** One command a study can run. */
export interface CommandFact {
  /** As typed after `gate`: `"analyze"`, `"plan-power"`, `"import table"`. */
  readonly name: string;
  /** The positional arguments: how many, what one is, and whether they are inputs. */
  readonly positionals: {
    readonly min: number;
    readonly max: number;
    readonly what: string;
    readonly role: "input" | "value";
  };
  /** Every option, `out` included. */
  readonly options: readonly OptionFact[];
  /** Options the command cannot run without (besides `out`). */
  readonly required: readonly string[];
  /** The input option that names the step by default when the command takes no positionals. */
  readonly names?: string;
}

const quiet: OptionFact = { name: "quiet", type: "boolean" };
const out: OptionFact = { name: "out", type: "string", role: "output" };
const labelPrefix: OptionFact = { name: "label-prefix", type: "string" };
const cache: OptionFact = { name: "cache", type: "string", path: true };
const seed: OptionFact = { name: "seed", type: "string" };
const bootstrap: OptionFact = { name: "bootstrap", type: "string" };
const noPng: OptionFact = { name: "no-png", type: "boolean" };
const input = (name: string, multiple = false): OptionFact => ({
  name,
  type: "string",
  role: "input",
  ...(multiple ? { multiple } : {}),
});
const value = (name: string): OptionFact => ({ name, type: "string" });
const inputs = (what: string, min = 1, max = Infinity) =>
  ({ min, max, what, role: "input" }) as const;
const none = { min: 0, max: 0, what: "argument", role: "value" } as const;

/**
 * The commands of a study, steps and imports (`import table`, `import
 * inspect`). `notebook` runs a project notebook (lib/cli/notebooks.ts):
 * its positional is the notebook's name and `p` its parameters.
 */
export const STUDY_COMMANDS: readonly CommandFact[] = [
  {
    name: "validate",
    positionals: inputs("gate directory"),
    options: [out, value("cap"), cache, quiet],
    required: [],
  },
  {
    name: "analyze",
    positionals: inputs("gate directory"),
    options: [
      out,
      value("metric"),
      bootstrap,
      seed,
      value("interval"),
      value("budget-k"),
      value("cov"),
      { name: "ledger", type: "string", role: "output" },
      cache,
      value("exploratory"),
      value("estimator"),
      { name: "save-draws", type: "boolean" },
      quiet,
      labelPrefix,
    ],
    required: [],
  },
  {
    name: "heldout",
    positionals: inputs("gate directory"),
    options: [input("plan"), out, input("against", true), cache, quiet, labelPrefix],
    required: ["plan"],
  },
  {
    name: "compare",
    positionals: none,
    options: [
      input("bare"),
      input("equipped"),
      out,
      input("selection"),
      bootstrap,
      seed,
      quiet,
      labelPrefix,
    ],
    required: ["bare", "equipped"],
    names: "equipped",
  },
  {
    name: "plan-power",
    positionals: none,
    options: [
      value("tasks"),
      value("columns"),
      value("p-present"),
      value("resid-sd"),
      value("budget-k"),
      value("effects"),
      value("sims"),
      seed,
      value("metric"),
      input("from"),
      out,
      labelPrefix,
      quiet,
    ],
    required: [],
    names: "from",
  },
  {
    name: "study",
    positionals: inputs("study directory", 1, 1),
    options: [out, quiet, labelPrefix],
    required: [],
  },
  {
    name: "reward",
    positionals: inputs("steps file", 1, 1),
    options: [
      value("recipe"),
      input("prm-weights"),
      input("groups"),
      bootstrap,
      seed,
      out,
      quiet,
      labelPrefix,
    ],
    required: ["recipe"],
  },
  {
    name: "sequential",
    positionals: inputs("gate directory"),
    options: [
      out,
      value("order"),
      seed,
      value("alpha"),
      value("phi"),
      value("every"),
      noPng,
      quiet,
      labelPrefix,
    ],
    required: [],
  },
  {
    name: "ladder",
    positionals: inputs("ladder directory", 1, 1),
    options: [out, input("prefill"), noPng, quiet, labelPrefix],
    required: [],
  },
  {
    name: "history",
    positionals: inputs("gate or analysis directory"),
    options: [
      out,
      { name: "allow-lineage-gaps", type: "boolean" },
      bootstrap,
      seed,
      cache,
      noPng,
      quiet,
      labelPrefix,
    ],
    required: [],
  },
  {
    name: "ledger-audit",
    positionals: inputs("ledger file", 1, 1),
    options: [out, input("history"), quiet],
    required: [],
  },
  {
    name: "firewall",
    positionals: none,
    options: [input("texts", true), input("gold"), out, quiet],
    required: ["gold"],
    names: "texts",
  },
  {
    name: "report",
    positionals: inputs("output directory"),
    options: [out, value("title"), { name: "pdf", type: "boolean" }, labelPrefix, quiet],
    required: [],
  },
  {
    name: "notebook",
    positionals: { min: 1, max: 1, what: "notebook", role: "value" },
    options: [{ name: "p", type: "string", multiple: true }, out],
    required: [],
  },
  {
    name: "import table",
    positionals: inputs("table file"),
    options: [input("map"), out, quiet],
    required: [],
  },
  {
    name: "import inspect",
    positionals: { min: 0, max: 0, what: "masked log", role: "input" },
    options: [input("bare"), input("masked", true), input("map"), out, quiet],
    required: ["bare", "masked"],
    names: "bare",
  },
];

/** The commands a step can run (everything but the imports), in the order above. */
export const STEP_COMMAND_NAMES: readonly string[] = STUDY_COMMANDS
  .map((c) => c.name).filter((n) => !n.startsWith("import "));

/**
 * The facts of one command, or undefined for a name that is none.
 *
 * @example
 * ```ts
 * import { commandFact } from "./command_options.ts";
 * import { equal } from "node:assert/strict";
 * equal(commandFact("heldout")?.options.find((o) => o.name === "plan")?.role, "input");
 * equal(commandFact("analyze")?.positionals.what, "gate directory");
 * equal(commandFact("analyse"), undefined);
 * ```
 */
export function commandFact(name: string): CommandFact | undefined {
  return STUDY_COMMANDS.find((c) => c.name === name);
}
