/**
 * The command table (lib/cli/command_table.ts) is what the CLI runs: every
 * command's `--help` is the text written from its declaration, every
 * declared option appears in it, `gate --help` lists exactly the table's
 * commands, each option's role is declared where its value is a path, and
 * help and usage lines name the program as the user started it (`gate`
 * installed, `deno task gate` from the clone), through main() and through
 * the installed script's first argument.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { commandDecl, COMMANDS } from "../lib/cli/command_table.ts";
import { COMMON } from "../lib/cli/common_options.ts";
import { commandHelp } from "../lib/cli/help.ts";
import { gateTask, gateTaskArgs, ROOT } from "./gate_process.ts";
import { capturedMain } from "./fixtures.ts";

/** Runs main() with console captured, in an empty directory that must stay empty. */
async function run(
  args: string[],
  program?: string,
): Promise<{ code: number; log: string; err: string }> {
  const context = program === undefined ? {} : { program };
  const { value, log, err } = await capturedMain(args, context);
  return { code: value, log, err };
}

Deno.test("command table: every command's --help is the text written from its declaration", async () => {
  for (const decl of COMMANDS) {
    for (const flag of ["--help", "-h"]) {
      const { code, log, err } = await run([...decl.name.split(" "), flag]);
      deepEqual([code, err], [0, ""], `${decl.name} ${flag}`);
      equal(log, commandHelp(decl), `${decl.name} ${flag}`);
    }
  }
  // A group's first word alone prints the group's help (exit 2 without --help).
  const group = await run(["import"]);
  deepEqual([group.code, group.log], [2, commandHelp(commandDecl("import table")!)]);
});

Deno.test("command table: every declared option appears in its command's help", () => {
  for (const decl of COMMANDS) {
    const help = commandHelp(decl);
    for (const option of decl.options) {
      ok(
        new RegExp(`--${option.name}(?![\\w-])`).test(help),
        `${decl.name}: --${option.name} is declared but its help does not name it`,
      );
      if (option.usageOnly !== true) {
        match(
          help,
          new RegExp(`^ {2}--${option.name}(?![\\w-])`, "m"),
          `${decl.name} --${option.name}`,
        );
      }
    }
    for (const name of decl.required ?? []) {
      ok(decl.options.some((o) => o.name === name), `${decl.name}: required --${name} is declared`);
    }
  }
});

Deno.test("command table: gate --help lists exactly the table's commands, groups once", async () => {
  const { code, log } = await run(["--help"]);
  equal(code, 0);
  const listed = [...log.matchAll(/^ {2}([a-z][a-z-]*) {2,}(.*)$/gm)].map((m) => [m[1]!, m[2]!]);
  const expected: [string, string][] = [];
  for (const c of COMMANDS) {
    const entry = c.group ?? c;
    if (!expected.some(([name]) => name === entry.name)) expected.push([entry.name, entry.summary]);
  }
  deepEqual(listed, expected);
});

Deno.test("command table: every option and positional says what its value is", () => {
  const paths = /^<(dir|file|log|run_dir|file\.csv)>$|\.jsonl$|^FILE$/;
  for (const decl of COMMANDS) {
    for (const o of decl.options) {
      if (o.placeholder !== undefined && paths.test(o.placeholder) && o.name !== "cache") {
        ok(
          o.role === "input" || o.role === "output",
          `${decl.name} --${o.name}: a path has a role`,
        );
      }
      if (o.role === "output") ok(["out", "ledger"].includes(o.name), `${decl.name} --${o.name}`);
    }
    // plan-power takes none; notebook new's one names the file it writes.
    if (decl.positionals?.max !== 0 && !["plan-power", "notebook new"].includes(decl.name)) {
      equal(decl.positionals?.role, "input", `${decl.name}: its positionals are inputs`);
    }
  }
  deepEqual(
    commandDecl("analyze")!.options.filter((o) => o.role === "input").map((o) => o.name),
    ["sums", "map"],
  );
  deepEqual(
    commandDecl("compare")!.options.filter((o) => o.role === "input").map((o) => o.name),
    ["bare", "equipped", "selection"],
  );
});

Deno.test("command table: a common option is declared once and shows the defaults' values", () => {
  // Every command that takes --seed or --bootstrap takes the common declaration (help aside).
  for (const decl of COMMANDS) {
    for (const name of ["seed", "bootstrap", "interval", "cov", "label-prefix"] as const) {
      const o = decl.options.find((d) => d.name === name);
      if (o === undefined) continue;
      equal(o.type, COMMON[name].type, `${decl.name} --${name}`);
      if (name === "seed") equal(o.default, COMMON.seed.default, `${decl.name}: one default seed`);
      if (name !== "label-prefix") {
        equal(o.read !== undefined, true, `${decl.name} --${name} is read`);
      }
    }
  }
  match(
    commandHelp(commandDecl("sequential")!),
    /--seed <S> +seed of --order random \(default 20260927\)/,
  );
});

Deno.test("help and usage lines name the program as started: gate or deno task gate", async () => {
  const usage = await run([], "gate");
  match(usage.log, /^usage: gate <command> \[args\]$/m);
  match(usage.log, /^Run `gate <command> --help` for a command's options;$/m);
  match(usage.log, /^`gate --version` prints the version\.$/m);
  ok(!usage.log.includes("deno task"), usage.log);
  for (const decl of COMMANDS) {
    const words = decl.name.split(" ");
    const help = await run([...words, "--help"], "gate");
    equal(help.log, commandHelp(decl, "gate"), decl.name);
    match(help.log, new RegExp(`^(usage: | {7})gate ${decl.name} `, "m"), decl.name);
    ok(!/^usage: deno task gate|^ {7}deno task gate/m.test(help.log), decl.name);
    const typo = await run([...words, "--quiett"], "gate");
    match(typo.err, new RegExp(`; see gate ${words[0]} --help$`), decl.name);
  }
  const unknown = await run(["analyse"], "gate");
  equal(
    unknown.err,
    `usage_error  unknown command "analyse"; did you mean analyze?; see gate --help`,
  );
  const kind = await run(["import", "tabel"], "gate");
  equal(
    kind.err,
    `usage_error  import: unknown kind "tabel"; did you mean table? (table or inspect); see gate import --help`,
  );
  const missing = await run(["firewall", "--gold", "g", "--out", "o"], "gate");
  equal(
    missing.err,
    "usage_error  firewall needs at least one --texts <file>; see gate firewall --help",
  );
  const power = await run(["plan-power", "--out", "o", "--tasks", "4"], "gate");
  equal(
    power.err,
    "usage_error  plan-power needs --columns, --p-present, --resid-sd (or --from); see gate plan-power --help",
  );
  const masked = await run(["import", "inspect", "--bare", "b", "--out", "o"], "gate");
  equal(
    masked.err,
    "usage_error  import inspect needs --masked <log> (one or more); see gate import --help",
  );
});

Deno.test("the installed script's first argument names the program; deno task gate passes none", async () => {
  const spawn = async (args: string[]) => {
    const out = await new Deno.Command("deno", {
      args: [...gateTaskArgs(), ...args],
      cwd: ROOT,
      env: { ...gateTask().env, NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  };
  const installed = await spawn(["--invoked-as=gate", "analyze", "--help"]);
  equal(installed.code, 0);
  match(installed.stdout, /^usage: gate analyze <gate_dir>\.\.\. --out <dir> \[options\]\n/);
  const clone = await spawn(["analyze", "--bootstraps", "1"]);
  equal(clone.code, 2);
  equal(
    clone.stderr,
    "usage_error  analyze: unknown option --bootstraps; did you mean --bootstrap?; see deno task gate analyze --help\n",
  );
});

Deno.test("command table: light, its static imports reach core/, contract/ and the parser, no command or stage", async () => {
  const out = await new Deno.Command("deno", {
    args: ["info", "--json", "lib/cli/command_table.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
  }).output();
  equal(out.code, 0);
  const graph: {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  } = JSON.parse(new TextDecoder().decode(out.stdout));
  const lib = new URL("lib/", `file://${ROOT}`).href;
  const byName = new Map(graph.modules.map((m) => [m.specifier, m]));
  const reached = new Set<string>();
  const visit = (specifier: string) => {
    if (reached.has(specifier) || !specifier.startsWith(lib)) return;
    reached.add(specifier);
    for (const d of byName.get(specifier)?.dependencies ?? []) {
      if (d.code && !d.isDynamic) visit(d.code.specifier);
    }
  };
  visit(`${lib}cli/command_table.ts`);
  const outside = [...reached].map((s) => s.slice(lib.length)).filter((path) =>
    !/^(core|contract|math)\//.test(path) &&
    !["command_table", "commands", "common_options", "args", "help", "option_decl"]
      .some((name) => path === `cli/${name}.ts`)
  );
  deepEqual(outside, []);
});
