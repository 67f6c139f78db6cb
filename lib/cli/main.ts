/**
 * gatelab command line: `deno task gate <command> ...`.
 *
 * Exit codes: 0 success, 2 input issues (written to validation.json where
 * the command has an --out) or a usage or path mistake (one line), 130 or
 * 143 when SIGINT or SIGTERM stopped the write of an output (left whole), 1 crash. Each command module is imported only
 * when called, so a command that needs no SQL never starts DuckDB.
 *
 * @module
 */

import { UsageError } from "./args.ts";
import { nearestName } from "../core/nearest_name.ts";
import { PathError } from "../core/path_error.ts";
import { Interrupted } from "../core/interrupt.ts";
import { codeVersion, GATELAB_VERSION } from "../core/meta.ts";

type Command = { summary: string; load: () => Promise<{ run(args: string[]): Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  validate: { summary: "check gate data and pairing", load: () => import("./validate.ts") },
  analyze: { summary: "refit, bootstrap and select", load: () => import("./analyze.ts") },
  compare: {
    summary: "Gate B: equipped vs bare on held-out tasks",
    load: () => import("./compare.ts"),
  },
  heldout: { summary: "held-out ranking checks", load: () => import("./heldout.ts") },
  "plan-power": {
    summary: "standard errors, MDE and selection power",
    load: () => import("./plan_power.ts"),
  },
  study: { summary: "paper statistics for a study", load: () => import("./study.ts") },
  reward: { summary: "level-to-reward recipes", load: () => import("./reward.ts") },
  report: { summary: "self-contained HTML report", load: () => import("./report.ts") },
  sql: { summary: "SQL over loaded runs (DuckDB)", load: () => import("./sql.ts") },
  "ledger-audit": {
    summary: "audit a proposal ledger",
    load: () => import("./ledger_audit.ts"),
  },
  firewall: {
    summary: "gold firewall audit of deployable texts",
    load: () => import("./firewall.ts"),
  },
  history: {
    summary: "chunk lifecycles and lineage across gates",
    load: () => import("./history.ts"),
  },
  sequential: {
    summary: "anytime-valid confidence sequences over a gate's prefixes",
    load: () => import("./sequential.ts"),
  },
  import: {
    summary: "import tables (CSV, TSV, Parquet, JSONL) or inspect_ai logs as gates",
    load: () => import("./import.ts"),
  },
  ladder: {
    summary: "e-process ladder gate: W/L/E/INFRA, four exits, baseline prefill",
    load: () => import("./ladder.ts"),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    "usage: deno task gate <command> [args]",
    "",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Run `deno task gate <command> --help` for a command's options;",
    "`deno task gate --version` prints the version.",
  ].join("\n");
}

/** Runs the CLI with the given arguments and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    // The release, then the code version every output records in generator.version.
    console.log(`gatelab ${GATELAB_VERSION}\ncode ${codeVersion()} (generator.version of outputs)`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const near = nearestName(name, Object.keys(COMMANDS));
    console.error(
      `usage_error  unknown command "${name}"${near ? `; did you mean ${near}?` : ""}` +
        "; see deno task gate --help",
    );
    return 2;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (error) {
    if (error instanceof UsageError || error instanceof PathError) {
      console.error(`${error instanceof PathError ? error.code : "usage_error"}  ${error.message}`);
      return 2;
    }
    if (error instanceof Interrupted) {
      // Ctrl-C or SIGTERM during a write: the output is whole (lib/core/interrupt.ts).
      console.error(`interrupted  ${error.signal}: ${error.message}`);
      return error.exitCode;
    }
    console.error(`gatelab ${name} crashed: ${error instanceof Error ? error.stack : error}`);
    return 1;
  }
}

if (import.meta.main) {
  // `deno task` runs from the project root; resolve the user's relative
  // paths against the directory the task was started from (INIT_CWD).
  // (Run directly with narrower permissions, without --allow-env: no INIT_CWD.)
  const env = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state;
  const initCwd = env === "granted" ? Deno.env.get("INIT_CWD") : undefined;
  if (initCwd) Deno.chdir(initCwd);
  Deno.exit(await main(Deno.args));
}
