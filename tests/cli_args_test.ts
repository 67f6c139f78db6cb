import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { intOption, numberOption, parseCommand, UsageError } from "../lib/cli/args.ts";
import { main } from "../lib/cli/main.ts";

const HELP = "usage: deno task gate thing <dir>... --out <dir>";

const SPEC = {
  name: "thing",
  help: HELP,
  options: {
    out: { type: "string" },
    plan: { type: "string" },
    cap: { type: "string" },
    quiet: { type: "boolean" },
  },
  positionals: { min: 1, max: 2, what: "gate directory" },
  required: { out: "<dir>", plan: "<plan.json>" },
} as const;

/**
 * Runs `f` with console.log and console.error captured, in a fresh temporary
 * directory as the current directory (the cases' relative paths, `o`, `g`,
 * land there, never in the repository), and checks that it wrote nothing
 * there: a usage error writes no file.
 */
async function captured<T>(
  f: () => T | Promise<T>,
): Promise<{ value: T; log: string; err: string }> {
  const { log, error } = console;
  const logs: string[] = [], errs: string[] = [];
  const cwd = Deno.cwd();
  const dir = await Deno.makeTempDir({ prefix: "gatelab-args-" });
  Deno.chdir(dir);
  console.log = (...a: unknown[]) => logs.push(a.join(" "));
  console.error = (...a: unknown[]) => errs.push(a.join(" "));
  try {
    const value = await f();
    deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [], "nothing written");
    return { value, log: logs.join("\n"), err: errs.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
}

function usageMessage(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    return error.message;
  }
  throw new Error("expected a UsageError, nothing was thrown");
}

Deno.test("parseCommand: values, positionals and the recorded command line", () => {
  const parsed = parseCommand(["g1", "--out", "o", "--plan", "p.json", "--quiet"], SPEC);
  ok(parsed !== null);
  deepEqual(parsed.positionals, ["g1"]);
  equal(parsed.values.out, "o");
  equal(parsed.values.plan, "p.json");
  equal(parsed.values.quiet, true);
  equal(parsed.values.cap, undefined);
  equal(parsed.command, "gate thing g1 --out o --plan p.json --quiet");
});

Deno.test("parseCommand: --help and -h print the help and return null", async () => {
  for (const flag of ["--help", "-h"]) {
    // --help wins over missing positionals and required options.
    const { value, log } = await captured(() => parseCommand([flag], SPEC));
    equal(value, null);
    equal(log, HELP);
  }
});

Deno.test("parseCommand: missing required options are named together, in one line", () => {
  equal(
    usageMessage(() => parseCommand(["g1", "--plan", "p.json"], SPEC)),
    "thing needs --out <dir>; see deno task gate thing --help",
  );
  equal(
    usageMessage(() => parseCommand(["g1"], SPEC)),
    "thing needs --out <dir> and --plan <plan.json>; see deno task gate thing --help",
  );
  // An empty value counts as missing.
  match(usageMessage(() => parseCommand(["g1", "--out", "", "--plan", "p"], SPEC)), /needs --out/);
});

Deno.test("parseCommand: too few and too many positionals", () => {
  const required = ["--out", "o", "--plan", "p"];
  equal(
    usageMessage(() => parseCommand(required, SPEC)),
    "thing needs at least one gate directory; see deno task gate thing --help",
  );
  equal(
    usageMessage(() => parseCommand(["a", "b", "c", ...required], SPEC)),
    "thing takes at most 2 gate directories; see deno task gate thing --help",
  );
  const one = { ...SPEC, positionals: { min: 1, max: 1, what: "study directory" } };
  match(usageMessage(() => parseCommand(required, one)), /^thing takes one study directory; see/);
  match(usageMessage(() => parseCommand(["a", "b", ...required], one)), /takes one study dir/);
  const none = { ...SPEC, positionals: { max: 0 } };
  match(usageMessage(() => parseCommand(["a", ...required], none)), /takes no positional/);
  // Positionals are checked before required options, as the commands did.
  match(usageMessage(() => parseCommand([], SPEC)), /needs at least one gate directory/);
});

Deno.test("parseCommand: unknown options and options without a value are UsageErrors", () => {
  equal(
    usageMessage(() => parseCommand(["g", "--nope"], SPEC)),
    "thing: unknown option --nope; see deno task gate thing --help",
  );
  equal(
    usageMessage(() => parseCommand(["g", "--caps", "3"], SPEC)),
    "thing: unknown option --caps; did you mean --cap?; see deno task gate thing --help",
  );
  equal(
    usageMessage(() => parseCommand(["g", "-x"], SPEC)),
    "thing: unknown option -x; see deno task gate thing --help",
  );
  match(usageMessage(() => parseCommand(["g", "--out"], SPEC)), /^thing: --out needs a value;/);
  match(usageMessage(() => parseCommand(["g", "--out", "--quiet"], SPEC)), /--out needs a value/);
  match(usageMessage(() => parseCommand(["g", "--quiet=yes"], SPEC)), /--quiet takes no value/);
});

Deno.test("parseCommand: a value that starts with a dash is the option's value", () => {
  const spaced = parseCommand(["g", "--out", "o", "--plan", "p", "--cap", "-5"], SPEC);
  const joined = parseCommand(["g", "--out", "o", "--plan", "p", "--cap=-5"], SPEC);
  equal(spaced?.values.cap, "-5");
  equal(joined?.values.cap, "-5");
  // So the range message is the same for both spellings.
  equal(
    usageMessage(() => intOption("cap", spaced?.values.cap, 50, { min: 1 })),
    usageMessage(() => intOption("cap", joined?.values.cap, 50, { min: 1 })),
  );
  // The recorded command line is what the user typed.
  equal(spaced?.command, "gate thing g --out o --plan p --cap -5");
  // Everything after -- is positional.
  deepEqual(parseCommand(["--out", "o", "--plan", "p", "--", "--odd-dir"], SPEC)?.positionals, [
    "--odd-dir",
  ]);
});

Deno.test("parseCommand: every command accepts --quiet", () => {
  const spec = { name: "x", help: "usage: x", options: { out: { type: "string" } } } as const;
  equal(parseCommand(["--out", "o", "--quiet"], spec)?.values.quiet, true);
});

Deno.test("intOption: integers, fallbacks and range errors", () => {
  equal(intOption("cap", "7", 50, { min: 1 }), 7);
  equal(intOption("cap", undefined, 50, { min: 1 }), 50);
  equal(intOption("budget-k", undefined, undefined, { min: 1 }), undefined);
  equal(intOption("seed", "-3", 0), -3);
  equal(intOption("k", "5", 0, { min: 1, max: 5 }), 5);
  equal(
    usageMessage(() => intOption("cap", "0", 50, { min: 1 })),
    '--cap must be a positive integer, got "0"',
  );
  equal(
    usageMessage(() => intOption("bootstrap", "-1", 10, { min: 0 })),
    '--bootstrap must be a non-negative integer, got "-1"',
  );
  equal(
    usageMessage(() => intOption("n", "1", 10, { min: 2 })),
    '--n must be an integer >= 2, got "1"',
  );
  equal(
    usageMessage(() => intOption("n", "9", 1, { max: 8 })),
    '--n must be an integer <= 8, got "9"',
  );
  equal(
    usageMessage(() => intOption("k", "6", 1, { min: 1, max: 5 })),
    '--k must be an integer in [1, 5], got "6"',
  );
  equal(usageMessage(() => intOption("seed", "2.5", 1)), '--seed must be an integer, got "2.5"');
  equal(usageMessage(() => intOption("seed", "ten", 1)), '--seed must be an integer, got "ten"');
  throws(() => intOption("seed", "1e300", 1), UsageError);
});

Deno.test("numberOption: finite numbers, fallbacks and range errors", () => {
  equal(numberOption("p-present", "0.25", undefined), 0.25);
  equal(numberOption("p-present", undefined, undefined), undefined);
  equal(numberOption("resid-sd", "1e-2", 1), 0.01);
  equal(
    usageMessage(() => numberOption("resid-sd", "x", 1)),
    '--resid-sd must be a number, got "x"',
  );
  equal(
    usageMessage(() => numberOption("s", "Infinity", 1)),
    '--s must be a number, got "Infinity"',
  );
  equal(
    usageMessage(() => numberOption("p", "1.5", 0.5, { min: 0, max: 1 })),
    '--p must be a number in [0, 1], got "1.5"',
  );
});

// Every command, through main(): usage errors exit 2 and print one line
// with what is missing and where the help is; --help exits 0. None of these
// reach I/O.
const COMMANDS: readonly (readonly [string, readonly string[], RegExp])[] = [
  [
    "validate",
    ["g"],
    /^usage_error {2}validate needs --out <dir> for validation.json; see deno task gate validate --help$/,
  ],
  [
    "validate",
    ["--out", "o"],
    /validate needs at least one gate directory; see deno task gate validate --help$/,
  ],
  ["validate", ["g", "--out", "o", "--cap", "0"], /--cap must be a positive integer, got "0"/],
  ["analyze", ["g"], /analyze needs --out <dir>; see deno task gate analyze --help$/],
  ["analyze", ["--out", "o"], /analyze needs at least one gate directory/],
  ["analyze", ["g", "--out", "o", "--bootstrap=-1"], /--bootstrap must be a non-negative/],
  [
    "heldout",
    ["g"],
    /heldout needs --out <dir> and --plan <plan.json>; see deno task gate heldout --help$/,
  ],
  [
    "compare",
    ["--out", "o"],
    /compare needs --bare <run_dir> and --equipped <run_dir>; see deno task gate compare --help$/,
  ],
  ["compare", ["x", "--bare", "b", "--equipped", "e", "--out", "o"], /takes no positional/],
  [
    "study",
    ["a", "b", "--out", "o"],
    /study takes one study directory; see deno task gate study --help$/,
  ],
  ["study", ["s"], /study needs --out <dir>/],
  ["reward", ["s.jsonl", "--recipe", "A"], /reward needs --out <dir>/],
  ["reward", ["--out", "o"], /reward takes one steps file/],
  ["reward", ["s", "--out", "o", "--recipe", "A", "--bootstrap", "0"], /positive integer/],
  ["report", ["a", "--out", "o", "--title"], /report: --title needs a value/],
  [
    "analyze",
    ["g", "--out", "o", "--bootstraps", "5"],
    /unknown option --bootstraps; did you mean --bootstrap\?/,
  ],
  [
    "analyze",
    ["g", "--out", "o", "--bootstrap", "-5"],
    /--bootstrap must be a non-negative integer, got "-5"/,
  ],
  ["report", ["a"], /report needs --out <dir>; see deno task gate report --help$/],
  [
    "plan-power",
    ["--tasks", "10"],
    /plan-power needs --out <dir>; see deno task gate plan-power --help$/,
  ],
  ["plan-power", ["--out", "o", "--tasks", "1.5"], /--tasks must be an integer, got "1.5"/],
  ["plan-power", ["--out", "o", "--p-present", "x"], /--p-present must be a number/],
  ["sql", ["g"], /sql needs --query "<SQL>"; see deno task gate sql --help$/],
  ["sql", ["--query", "select 1"], /sql needs at least one gate, run or output directory/],
  ["sql", ["g", "-q", "select 1", "--max-rows=-1"], /--max-rows must be a non-negative/],
  // One word from a few, read by choiceOption: the same sentence everywhere.
  [
    "analyze",
    ["g", "--out", "o", "--interval", "bc"],
    /--interval must be percentile or bca, got "bc"$/,
  ],
  [
    "analyze",
    ["g", "--out", "o", "--cov", "hc4"],
    /--cov must be hc0, hc1, hc2 or hc3, got "hc4"$/,
  ],
  ["reward", ["s", "--out", "o", "--recipe", "D"], /--recipe must be A, B or C, got "D"$/],
  [
    "reward",
    ["s", "--out", "o"],
    /reward needs --recipe A\|B\|C; see deno task gate reward --help$/,
  ],
  [
    "sequential",
    ["g", "--out", "o", "--order", "x"],
    /--order must be run, task or random, got "x"$/,
  ],
  // --seed is read by one reader: a non-negative integer for every command.
  [
    "reward",
    ["s", "--out", "o", "--recipe", "A", "--seed", "-3"],
    /--seed must be a non-negative integer, got "-3"$/,
  ],
  [
    "plan-power",
    ["--out", "o", "--seed", "-3"],
    /--seed must be a non-negative integer, got "-3"$/,
  ],
  [
    "history",
    ["g", "--out", "o", "--seed", "x"],
    /--seed must be a non-negative integer, got "x"$/,
  ],
  [
    "plan-power",
    ["--out", "o", "--tasks", "40"],
    /plan-power needs --columns, --p-present, --resid-sd \(or --from\); see deno task gate plan-power --help$/,
  ],
];

Deno.test("every command: usage errors exit 2 with the reason in one line", async () => {
  for (const [name, args, expected] of COMMANDS) {
    const { value, log, err } = await captured(() => main([name, ...args]));
    equal(value, 2, `${name} ${args.join(" ")}`);
    equal(log, "", `${name} ${args.join(" ")} printed to stdout`);
    match(err, expected, `${name} ${args.join(" ")}`);
    equal(err.split("\n").length, 1, `${name} ${args.join(" ")}: one line`);
  }
});

const ALL_COMMANDS = [
  "validate",
  "analyze",
  "heldout",
  "plan-power",
  "compare",
  "study",
  "reward",
  "report",
  "sql",
  "ledger-audit",
  "firewall",
  "history",
  "sequential",
  "ladder",
] as const;

Deno.test("every command: an unknown option is named with the nearest known one, in one line", async () => {
  for (const name of ALL_COMMANDS) {
    const { value, log, err } = await captured(() => main([name, "--quiett"]));
    equal(value, 2, name);
    equal(log, "", name);
    equal(
      err,
      `usage_error  ${name}: unknown option --quiett; did you mean --quiet?; see deno task gate ${name} --help`,
    );
  }
});

Deno.test("an unknown command: exit 2, one line, the nearest command", async () => {
  const typo = await captured(() => main(["analyse", "g"]));
  deepEqual(
    [typo.value, typo.log, typo.err],
    [
      2,
      "",
      `usage_error  unknown command "analyse"; did you mean analyze?; see deno task gate --help`,
    ],
  );
  const far = await captured(() => main(["zzzzzz"]));
  deepEqual(
    [far.value, far.err],
    [2, `usage_error  unknown command "zzzzzz"; see deno task gate --help`],
  );
});

Deno.test("every command: --help prints its usage and exits 0", async () => {
  for (const name of ["validate", "analyze", "heldout", "compare", "study", "reward", "report"]) {
    const { value, log } = await captured(() => main([name, "--help"]));
    equal(value, 0, name);
    match(log, new RegExp(`^usage: deno task gate ${name} `), name);
  }
  for (const name of ["plan-power", "sql"]) {
    const { value, log } = await captured(() => main([name, "-h"]));
    equal(value, 0, name);
    match(log, new RegExp(`^usage: deno task gate ${name} `), name);
  }
});
