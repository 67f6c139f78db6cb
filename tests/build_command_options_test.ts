/**
 * lib/build/command_options.ts, the one place a build learns the options
 * of each command, against the commands themselves (lib/cli/<command>.ts):
 * every option it lists is accepted by the command with its type (a string
 * option needs a value, a flag takes none), every flag the command's
 * --help shows is listed, the options it calls required are the ones the
 * command asks for, and the positional counts are the command's.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { STUDY_COMMANDS } from "../lib/build/command_options.ts";
import { UsageError } from "../lib/cli/args.ts";
import { commandDecl } from "../lib/cli/command_table.ts";

/** The command's `run`, as the command table loads it. */
async function commandRun(name: string): Promise<(args: string[]) => Promise<number>> {
  const decl = commandDecl(name);
  if (decl === undefined) throw new Error(`no command ${name}`);
  const mod = await decl.load();
  return (args) => mod.run(args);
}

/** Runs with the help it prints silenced; returns the exit code. */
async function quietly(f: () => Promise<number>): Promise<{ code: number }> {
  const { log } = console;
  console.log = () => {};
  try {
    return { code: await f() };
  } finally {
    console.log = log;
  }
}

for (const fact of STUDY_COMMANDS.filter((c) => c.name !== "notebook")) {
  Deno.test(`command options: ${fact.name} accepts every option the study file may give it`, async () => {
    const run = await commandRun(fact.name);
    for (const option of fact.options) {
      const flag = `--${option.name}`;
      if (option.type === "boolean") {
        equal((await quietly(() => run([flag, "--help"]))).code, 0, flag);
        await rejects(run([`${flag}=x`, "--help"]), /takes no value/, flag);
      } else {
        equal((await quietly(() => run([flag, "x", "--help"]))).code, 0, flag);
        await rejects(run([flag, "--help"]), /needs a value/, flag);
      }
    }
    // Every flag the help shows is known (--help itself aside).
    const { log } = console;
    let help = "";
    console.log = (...parts: unknown[]) => void (help += parts.join(" ") + "\n");
    try {
      await run(["--help"]);
    } finally {
      console.log = log;
    }
    const shown = [...new Set([...help.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!))]
      .filter((f) => f !== "help");
    // `gate import` has one help for both kinds.
    const known = STUDY_COMMANDS
      .filter((c) =>
        c.name === fact.name || (fact.name.startsWith("import ") && c.name.startsWith("import "))
      )
      .flatMap((c) => c.options.map((o) => o.name));
    deepEqual(shown.filter((f) => !known.includes(f)), [], `${fact.name} --help`);
  });

  Deno.test(`command options: ${fact.name}'s positionals and required options are the command's`, async () => {
    const run = await commandRun(fact.name);
    const { min, max } = fact.positionals;
    if (fact.name === "plan-power" || fact.name === "import inspect") {
      // The command reads no positionals (plan-power) or masked logs (import inspect) there;
      // a study gives them as options, so the schema takes none.
      equal(max, 0);
    } else {
      if (min > 0) await rejects(run([]), UsageError);
      if (max !== Infinity) {
        await rejects(run(Array.from({ length: max + 1 }, () => "x")), /takes /);
      }
    }
    const positionals = Array.from({ length: min }, () => "x");
    const missing = await run(positionals).then(
      () => "",
      (error: Error) => error.message,
    );
    const asked = [...missing.replace(/;.*$/, "").matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
    deepEqual(
      asked.filter((o) => o !== "out").sort(),
      [...fact.required].filter((o) => fact.name !== "import inspect" || o !== "masked").sort(),
      `${fact.name}: ${missing}`,
    );
  });
}
