/**
 * What a study file may say to each gatelab command: the commands a step
 * or an import runs, their positional arguments and their options (named
 * exactly as the command-line flags, without dashes), and the role of each
 * (an input the command reads, the output it writes, or a plain value).
 *
 * This file is the one place lib/build learns these facts: it reads the
 * command table's declarations (lib/cli/commands.ts: options, their types
 * and roles, positionals, required options) and adds what only a build
 * needs (which input names a step by default). tests/build_command_options_test.ts
 * holds every entry to the command it names (each option is accepted with
 * its type, every flag of the command's `--help` is here).
 *
 * @module
 */
import type { CommandSpec } from "../cli/option_decl.ts";
import {
  ANALYZE,
  COMPARE,
  FIREWALL,
  HELDOUT,
  HISTORY,
  IMPORT_INSPECT,
  IMPORT_TABLE,
  LADDER,
  LEDGER_AUDIT,
  PLAN_POWER,
  REPORT,
  REWARD,
  SEQUENTIAL,
  STUDY,
  VALIDATE,
} from "../cli/commands.ts";

const DECLARATIONS: readonly CommandSpec[] = [
  VALIDATE,
  ANALYZE,
  HELDOUT,
  COMPARE,
  PLAN_POWER,
  STUDY,
  REWARD,
  SEQUENTIAL,
  LADDER,
  HISTORY,
  LEDGER_AUDIT,
  FIREWALL,
  REPORT,
  IMPORT_TABLE,
  IMPORT_INSPECT,
];

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

/** What a build adds to a command's declaration. */
interface BuildExtras {
  /** The input option that names the step when the command takes no positionals. */
  readonly names?: string;
  /** Most positionals a study file may give (`import inspect` takes its masked logs as `masked:`). */
  readonly maxPositionals?: number;
}

const EXTRAS: Readonly<Record<string, BuildExtras>> = {
  compare: { names: "equipped" },
  "plan-power": { names: "from" },
  firewall: { names: "texts" },
  "import inspect": { names: "bare", maxPositionals: 0 },
};

/** The commands of lib/cli a study runs, in the command table's order. */
const STUDY_COMMAND_NAMES = [
  "validate",
  "analyze",
  "heldout",
  "compare",
  "plan-power",
  "study",
  "reward",
  "sequential",
  "ladder",
  "history",
  "ledger-audit",
  "firewall",
  "report",
  "import table",
  "import inspect",
];

/**
 * `notebook` runs a notebook (lib/cli/notebooks.ts): its positional is a project notebook's
 * name, or a `.ipynb` file (an input, relative to the study file), and `p` its parameters.
 */
const NOTEBOOK: CommandFact = {
  name: "notebook",
  positionals: { min: 1, max: 1, what: "notebook", role: "value" },
  options: [{ name: "p", type: "string", multiple: true }, {
    name: "out",
    type: "string",
    role: "output",
  }],
  required: [],
};

/** A command's declaration (lib/cli/commands.ts) as a build reads it. */
function fact(decl: CommandSpec): CommandFact {
  const extras = EXTRAS[decl.name] ?? {};
  // A command that declares no positionals takes none in a study file.
  const p = decl.positionals ?? { max: 0 };
  return {
    name: decl.name,
    positionals: {
      min: p.min ?? 0,
      max: extras.maxPositionals ?? p.max ?? Infinity,
      what: p.what ?? "argument",
      role: p.role ?? "value",
    },
    options: decl.options.map((o) => ({
      name: o.name,
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.role !== undefined && o.role !== "value" ? { role: o.role } : {}),
      ...(o.name === "cache" ? { path: true } : {}),
    })),
    required: (decl.required ?? []).filter((name) => name !== "out"),
    ...(extras.names !== undefined ? { names: extras.names } : {}),
  };
}

/**
 * The commands of a study, steps and imports (`import table`, `import
 * inspect`), read from the command table's declarations, and `notebook`.
 */
export const STUDY_COMMANDS: readonly CommandFact[] = [
  ...STUDY_COMMAND_NAMES.map((name) => {
    const decl = DECLARATIONS.find((d) => d.name === name);
    if (decl === undefined) throw new Error(`lib/cli/commands.ts declares no ${name}`);
    return fact(decl);
  }),
  NOTEBOOK,
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
