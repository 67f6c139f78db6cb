import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { integerReader, numberReader, parseCommand, UsageError } from "../lib/cli/args.ts";
import { COMMANDS as TABLE } from "../lib/cli/command_table.ts";
import { captured, capturedMain } from "./fixtures.ts";

const HELP = "usage: deno task gate thing <dir>... --out <dir>";

const SPEC = {
  name: "thing",
  synopsis: "<dir>... --out <dir>",
  options: [
    {
      name: "out",
      type: "string",
      placeholder: "<dir>",
      help: "output directory",
      usageOnly: true,
    },
    {
      name: "plan",
      type: "string",
      placeholder: "<file>",
      requiredAs: "<plan.json>",
      help: "the plan",
      usageOnly: true,
    },
    { name: "cap", type: "string", help: "cap", usageOnly: true },
    { name: "quiet", type: "boolean", help: "quiet", usageOnly: true },
  ],
  positionals: { min: 1, max: 2, what: "gate directory" },
  required: ["out", "plan"],
} as const;

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
  equal(parseCommand(["g1", "--out", "o", "--plan", "p.json"], SPEC)?.values.quiet, false);
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
    usageMessage(() => integerReader({ min: 1 })("cap", spaced!.values.cap!)),
    usageMessage(() => integerReader({ min: 1 })("cap", joined!.values.cap!)),
  );
  // The recorded command line is what the user typed.
  equal(spaced?.command, "gate thing g --out o --plan p --cap -5");
  // Everything after -- is positional.
  deepEqual(parseCommand(["--out", "o", "--plan", "p", "--", "--odd-dir"], SPEC)?.positionals, [
    "--odd-dir",
  ]);
});

Deno.test("parseCommand: an option not declared is unknown, --quiet included", () => {
  const spec = { name: "x", synopsis: "", options: [] } as const;
  equal(
    usageMessage(() => parseCommand(["--quiet"], spec)),
    "x: unknown option --quiet; see deno task gate x --help",
  );
});

Deno.test("parseCommand: read values, defaults, flags and repeatable options", () => {
  const spec = {
    name: "x",
    synopsis: "",
    options: [
      { name: "cap", type: "string", help: "", default: 50, read: integerReader({ min: 1 }) },
      { name: "k", type: "string", help: "", read: integerReader({ min: 1 }) },
      { name: "texts", type: "string", multiple: true, help: "" },
      { name: "png", type: "boolean", help: "" },
      { name: "metric", type: "string", help: "", default: "reward" },
    ],
  } as const;
  const none = parseCommand([], spec)!.values;
  deepEqual([none.cap, none.k, none.texts, none.png, none.metric], [
    50,
    undefined,
    [],
    false,
    "reward",
  ]);
  const given = parseCommand(
    ["--cap", "7", "--k", "2", "--texts", "a", "--texts", "b", "--png", "--metric", "cost"],
    spec,
  )!.values;
  deepEqual([given.cap, given.k, given.texts, given.png, given.metric], [
    7,
    2,
    ["a", "b"],
    true,
    "cost",
  ]);
  equal(
    usageMessage(() => parseCommand(["--cap", "0"], spec)),
    '--cap must be a positive integer, got "0"',
  );
});

Deno.test("parseCommand: the program name goes into every usage error", () => {
  equal(
    usageMessage(() => parseCommand(["g1"], SPEC, { program: "gate" })),
    "thing needs --out <dir> and --plan <plan.json>; see gate thing --help",
  );
  equal(
    usageMessage(() => parseCommand(["g", "--nope"], SPEC, { program: "gate" })),
    "thing: unknown option --nope; see gate thing --help",
  );
});

Deno.test("integerReader: integers and range errors", () => {
  equal(integerReader({ min: 1 })("cap", "7"), 7);
  equal(integerReader()("seed", "-3"), -3);
  equal(integerReader({ min: 1, max: 5 })("k", "5"), 5);
  equal(
    usageMessage(() => integerReader({ min: 1 })("cap", "0")),
    '--cap must be a positive integer, got "0"',
  );
  equal(
    usageMessage(() => integerReader({ min: 0 })("bootstrap", "-1")),
    '--bootstrap must be a non-negative integer, got "-1"',
  );
  equal(
    usageMessage(() => integerReader({ min: 2 })("n", "1")),
    '--n must be an integer >= 2, got "1"',
  );
  equal(
    usageMessage(() => integerReader({ max: 8 })("n", "9")),
    '--n must be an integer <= 8, got "9"',
  );
  equal(
    usageMessage(() => integerReader({ min: 1, max: 5 })("k", "6")),
    '--k must be an integer in [1, 5], got "6"',
  );
  equal(usageMessage(() => integerReader()("seed", "2.5")), '--seed must be an integer, got "2.5"');
  equal(usageMessage(() => integerReader()("seed", "ten")), '--seed must be an integer, got "ten"');
  throws(() => integerReader()("seed", "1e300"), UsageError);
});

Deno.test("numberReader: finite numbers, range errors and open bounds", () => {
  equal(numberReader()("p-present", "0.25"), 0.25);
  equal(numberReader()("resid-sd", "1e-2"), 0.01);
  equal(
    usageMessage(() => numberReader()("resid-sd", "x")),
    '--resid-sd must be a number, got "x"',
  );
  equal(
    usageMessage(() => numberReader()("s", "Infinity")),
    '--s must be a number, got "Infinity"',
  );
  equal(
    usageMessage(() => numberReader({ min: 0, max: 1 })("p", "1.5")),
    '--p must be a number in [0, 1], got "1.5"',
  );
  equal(
    usageMessage(() => numberReader({ min: 0, max: 1, open: true })("alpha", "1")),
    '--alpha must be in (0, 1), got "1"',
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
  // One word from a few, read by choiceReader: the same sentence everywhere.
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
    const { value, log, err } = await capturedMain([name, ...args]);
    equal(value, 2, `${name} ${args.join(" ")}`);
    equal(log, "", `${name} ${args.join(" ")} printed to stdout`);
    match(err, expected, `${name} ${args.join(" ")}`);
    equal(err.split("\n").length, 1, `${name} ${args.join(" ")}: one line`);
  }
});

/** Every command of the table, as typed (`import table` is two words). */
const ALL_COMMANDS = TABLE.map((c) => c.name);

Deno.test("every command: an unknown option is named with the nearest known one, in one line", async () => {
  for (const name of ALL_COMMANDS) {
    const { value, log, err } = await capturedMain([...name.split(" "), "--quiett"]);
    equal(value, 2, name);
    equal(log, "", name);
    const help = name.split(" ")[0];
    equal(
      err,
      `usage_error  ${name}: unknown option --quiett; did you mean --quiet?; see deno task gate ${help} --help`,
    );
  }
});

Deno.test("an unknown command: exit 2, one line, the nearest command", async () => {
  const typo = await capturedMain(["analyse", "g"]);
  deepEqual(
    [typo.value, typo.log, typo.err],
    [
      2,
      "",
      `usage_error  unknown command "analyse"; did you mean analyze?; see deno task gate --help`,
    ],
  );
  const far = await capturedMain(["zzzzzz"]);
  deepEqual(
    [far.value, far.err],
    [2, `usage_error  unknown command "zzzzzz"; see deno task gate --help`],
  );
});

Deno.test("every command: --help prints its usage and exits 0", async () => {
  for (const name of ["validate", "analyze", "heldout", "compare", "study", "reward", "report"]) {
    const { value, log } = await capturedMain([name, "--help"]);
    equal(value, 0, name);
    match(log, new RegExp(`^usage: deno task gate ${name} `), name);
  }
  for (const name of ["plan-power", "sql"]) {
    const { value, log } = await capturedMain([name, "-h"]);
    equal(value, 0, name);
    match(log, new RegExp(`^usage: deno task gate ${name} `), name);
  }
});
