/**
 * The command table of `gate`: every command's declaration
 * (lib/cli/commands.ts: summary, usage, positionals, options with their
 * roles, required options, help) with how to load it. `gate --help`,
 * dispatch in lib/cli/main.ts and a study build's steps read it. Light by
 * design: it imports the declarations, core/ and contract/, never a command
 * module or a stage; `load` imports the module when the command runs.
 *
 * @module
 */
import type { CommandDecl } from "./option_decl.ts";
import {
  ANALYZE,
  BUILD,
  COMPARE,
  FIREWALL,
  HELDOUT,
  HISTORY,
  IMPORT_INSPECT,
  IMPORT_TABLE,
  LADDER,
  LEDGER_AUDIT,
  NOTEBOOK_NEW,
  PLAN_POWER,
  REPORT,
  REWARD,
  SEQUENTIAL,
  SQL,
  STUDY,
  VALIDATE,
} from "./commands.ts";

/**
 * Every command of `gate`, in the order `gate --help` lists them (a
 * group's commands as their own entries, listed once under the group).
 *
 * @example
 * ```ts
 * import { COMMANDS } from "./command_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(COMMANDS.map((c) => c.name).slice(0, 3), ["validate", "analyze", "compare"]);
 * deepEqual(COMMANDS.filter((c) => c.group).map((c) => c.name), ["import table", "import inspect", "notebook new"]);
 * ```
 */
export const COMMANDS: readonly CommandDecl[] = Object.freeze([
  { ...VALIDATE, load: () => import("./validate.ts") },
  { ...ANALYZE, load: () => import("./analyze.ts") },
  { ...COMPARE, load: () => import("./compare.ts") },
  { ...HELDOUT, load: () => import("./heldout.ts") },
  { ...PLAN_POWER, load: () => import("./plan_power.ts") },
  { ...STUDY, load: () => import("./study.ts") },
  { ...REWARD, load: () => import("./reward.ts") },
  { ...REPORT, load: () => import("./report.ts") },
  { ...SQL, load: () => import("./sql.ts") },
  { ...LEDGER_AUDIT, load: () => import("./ledger_audit.ts") },
  { ...FIREWALL, load: () => import("./firewall.ts") },
  { ...HISTORY, load: () => import("./history.ts") },
  { ...SEQUENTIAL, load: () => import("./sequential.ts") },
  { ...IMPORT_TABLE, load: async () => ({ run: (await import("./import.ts")).runTable }) },
  { ...IMPORT_INSPECT, load: async () => ({ run: (await import("./import.ts")).runInspect }) },
  { ...LADDER, load: () => import("./ladder.ts") },
  { ...NOTEBOOK_NEW, load: () => import("./notebook_new.ts") },
  { ...BUILD, load: () => import("./build.ts") },
]);

/**
 * The declaration of a command by its full name.
 *
 * @param name As typed after the program: `"analyze"`, `"import table"`.
 * @returns The declaration, or `undefined` for no such command.
 *
 * @example
 * ```ts
 * import { commandDecl } from "./command_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const analyze = commandDecl("analyze")!;
 * deepEqual(analyze.options.filter((o) => o.role === "output").map((o) => o.name), ["out", "ledger"]);
 * deepEqual(analyze.positionals, { min: 0, what: "gate directory", role: "input" }); // 0: `--sums` stands in for the gate
 * deepEqual(commandDecl("import inspect")?.required, ["out", "bare"]);
 * deepEqual(commandDecl("import"), undefined);
 * ```
 */
export function commandDecl(name: string): CommandDecl | undefined {
  return COMMANDS.find((c) => c.name === name);
}
