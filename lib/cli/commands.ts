/**
 * The declaration of every `gate` command: its summary, usage, positionals,
 * options (the common ones of lib/cli/common_options.ts and its own, each
 * with what its value is: input, output or value), required options and
 * help paragraphs. lib/cli/command_table.ts adds how to load each; the
 * command module parses its arguments by its declaration here. Light by
 * design: it imports core/, contract/ and the parser's readers, never a
 * command module or a stage.
 *
 * @module
 */
import { DEFAULTS, MAX_SAVED_DRAWS, TASKS_CSV_MAX_ROWS } from "../core/defaults.ts";
import { RewardsMetaSchema } from "../contract/outputs/rewards.ts";
import { SequentialSchema } from "../contract/outputs/sequential.ts";
import { choiceReader, integerReader, numberReader } from "./args.ts";
import { COMMON } from "./common_options.ts";
import type { CommandGroup, CommandSpec } from "./option_decl.ts";

/** Keeps a declaration's literal types, so its parsed values are typed by it. */
function command<const D extends CommandSpec>(decl: D): D {
  return decl;
}

const { out, quiet, metric, bootstrap, seed, interval, cov, cache } = COMMON;
const labelPrefix = COMMON["label-prefix"], noPng = COMMON["no-png"];

/** `--pool-checkpoints` of `gate analyze` and `gate validate`. */
const poolCheckpoints = {
  name: "pool-checkpoints",
  type: "boolean",
  help: `pool gates of different bare runs (checkpoints): each
gate paired with its own bare run, errors clustered by
task, each checkpoint's coefficients beside the pooled
ones with Wald tests of equal effects (docs/analysis.md)`,
} as const;

/** `gate validate`. */
export const VALIDATE = command({
  name: "validate",
  summary: "check gate data and pairing",
  synopsis: "<gate_dir>... --out <dir>",
  about: `Checks gate data and the strict bare/masked pairing (docs/validation.md).
Several gate directories are validated as pooled rounds over one bare run, or,
with --pool-checkpoints, each against its own bare run.`,
  width: 14,
  positionals: { min: 1, what: "gate directory", role: "input" },
  options: [
    {
      ...out,
      help: "where validation.json is written (required)",
      requiredAs: "<dir> for validation.json",
    },
    {
      name: "cap",
      type: "string",
      placeholder: "<n>",
      help: "issues listed per code before summarising",
      default: 50,
      read: integerReader({ min: 1 }),
    },
    poolCheckpoints,
    {
      ...cache,
      help: `read bare and masked runs through the run cache in <dir>
(parsed runs as <dir>/runs/<key>.run, written on a miss);
validation.json records cache hit/miss per run (default: off)`,
    },
    { ...quiet, help: "print only the summary line" },
  ],
  required: ["out"],
});

/** `gate analyze`. */
export const ANALYZE = command({
  name: "analyze",
  summary: "refit, bootstrap and select",
  synopsis: "<gate_dir>... --out <dir> [options]",
  about: `Validates the gate(s), fits R_i - B_i = C_i' beta + e_i (no intercept) for
reward and every reward component, and applies the selection rule
(docs/analysis.md). Several gate directories sharing one bare run are pooled
(rows = gate x episode, errors clustered by task); gates of different bare runs
(checkpoints) only with --pool-checkpoints, each paired with its own bare run. Also writes the AMCE beside
every coefficient, diagnostics.json/.md/.tex (interaction screen, residuals by
number of chunks present) and, with the bootstrap, stability.md/.tex.
With --sums <parquet> and no gate directory it analyses a sums table instead
(per-task X'X, X'y, y'y computed by an engine; docs/performance.md, "Past one
machine"): coefficients, CR1 errors, selection and the task bootstrap, in
sums_analysis.json, with the checks and outputs sums cannot give listed.`,
  width: 19,
  positionals: { min: 0, what: "gate directory", role: "input" },
  options: [
    out,
    {
      name: "sums",
      type: "string",
      role: "input",
      placeholder: "<parquet>",
      help: `analyse a sums table instead of gate directories
(docs/FORMAT.md, "Sums tables"; --budget-k is then its budget)`,
    },
    {
      ...COMMON.map,
      help:
        "with --sums: the versions' slots and roles, budget_k and stage\n(gatelab.import-map/v1)",
    },
    metric,
    bootstrap,
    seed,
    interval,
    {
      name: "budget-k",
      type: "string",
      placeholder: "<K>",
      help: "override the gate's budget_k (exploratory only)",
      read: integerReader({ min: 1 }),
    },
    cov,
    {
      name: "ledger",
      type: "string",
      role: "output",
      placeholder: "<file>",
      help: "proposal ledger JSONL (default <out>/ledger.jsonl; its directory must exist)",
    },
    {
      ...cache,
      help: `${cache.help};\nvalidation.json records hit/miss per run (default: off)`,
    },
    {
      name: "exploratory",
      type: "string",
      placeholder: "<codes>",
      help: `waive these pairing codes (only provenance_mismatch,
seed_mismatch; comma-separated): the outputs say
"exploratory": true and list every waived issue; no
selection.json and no ledger entry are written`,
    },
    poolCheckpoints,
    {
      name: "estimator",
      type: "string",
      placeholder: "legacy_intercept",
      help: `also refit R_i - mean(B) = a + C_i' b + e_i and
write legacy_comparison.json/.md/.tex beside the paired fit`,
    },
    {
      name: "save-draws",
      type: "boolean",
      help: `with --bootstrap B: also write every draw's estimates as
draws.csv/draws.parquet (draw, metric, version_id, estimate;
refused above ${MAX_SAVED_DRAWS.toExponential()} estimates)`,
    },
    {
      name: "timings",
      type: "boolean",
      help: `print the wall time of each stage on stderr at the end (parse,
validate, pair, fit, diagnostics+screen, bootstrap, outputs, each file's write)`,
    },
    {
      name: "tasks-csv",
      type: "boolean",
      help: `also write tasks.csv above ${TASKS_CSV_MAX_ROWS.toLocaleString("en-US")} paired rows
(below, it is always written; tasks.parquet always)`,
    },
    labelPrefix,
    quiet,
  ],
  required: ["out"],
  notes: `Beside the JSON: tidy tables coefficients, tasks and selection as .csv and
.parquet (docs/FORMAT.md, "Tidy tables"); the per-task rows are tasks.parquet,
which contributions.json names with its sha256.`,
});

/** `gate compare`. */
export const COMPARE = command({
  name: "compare",
  summary: "Gate B: equipped vs bare on held-out tasks",
  synopsis: "--bare <run_dir> --equipped <run_dir> --out <dir> [options]",
  about: `Gate B: compares the equipped run (the whole frozen selection) with the bare
run on the same held-out tasks. Refuses unless the runs differ only in the
skill (checkpoint, model, endpoint, decoding, base prompt, environment,
runtime, reward must be equal; max_skills null or >= selected chunks).`,
  width: 20,
  positionals: { max: 0 },
  options: [
    {
      name: "bare",
      type: "string",
      role: "input",
      placeholder: "<dir>",
      help: "bare run directory (required)",
      requiredAs: "<run_dir>",
    },
    {
      name: "equipped",
      type: "string",
      role: "input",
      placeholder: "<dir>",
      help: "equipped run directory (required)",
      requiredAs: "<run_dir>",
    },
    out,
    {
      name: "selection",
      type: "string",
      role: "input",
      placeholder: "<file>",
      help: "Gate A selection.json: the equipped skill must equal its selected set",
    },
    { ...bootstrap, help: "paired task-bootstrap draws; 0 skips" },
    seed,
    labelPrefix,
    quiet,
  ],
  required: ["bare", "equipped", "out"],
});

/** `gate heldout`. */
export const HELDOUT = command({
  name: "heldout",
  summary: "held-out ranking checks",
  synopsis: "<gate_dir>... --plan <plan.json> --out <dir> [--against <later_gate_dir>]...",
  about: `Held-out ranking checks: split tasks (not rows), fit on one part, measure on
the other (Spearman, Kendall tau-b, top-K overlap, predicted vs realised gain
of the selected set). Several gate dirs are pooled rounds over one bare run.`,
  width: 19,
  positionals: { min: 1, what: "gate directory", role: "input" },
  options: [
    {
      name: "plan",
      type: "string",
      role: "input",
      placeholder: "<file>",
      help: `{"format": "gatelab.heldout-plan/v1", "scheme": "kfold" | "split_half",
 "folds": 5, "repeats": 20, "seed": 1, "metric": "reward", "budget_k": 10}`,
      requiredAs: "<plan.json>",
    },
    {
      name: "against",
      type: "string",
      multiple: true,
      role: "input",
      placeholder: "<dir>",
      help: "a later gate sharing versions (repeat for pooled rounds)",
    },
    { ...out, help: "where heldout.json, heldout.md, heldout.tex, validation.json go" },
    {
      ...cache,
      help: `${cache.help};
validation.json and heldout.json record hit/miss per run (default: off)`,
    },
    labelPrefix,
    { ...quiet, help: "print only the summary line" },
  ],
  required: ["out", "plan"],
});

/** `gate plan-power`. */
export const PLAN_POWER = command({
  name: "plan-power",
  summary: "standard errors, MDE and selection power",
  synopsis: `--tasks N --columns M --p-present p --resid-sd s --out <dir>
       [--budget-k K] [--effects e1,e2,...] [--sims S] [--seed S] [--from <analysis_out_dir>]`,
  about: `Standard error of beta for a random 0/1 design, the minimum detectable
effect at 80% power (two-sided alpha 0.05), and by simulation the
probability that the truly best K versions are selected.`,
  width: 17,
  options: [
    {
      name: "tasks",
      type: "string",
      placeholder: "N",
      help: "tasks of the planned gate",
      read: integerReader(),
      usageOnly: true,
    },
    {
      name: "columns",
      type: "string",
      placeholder: "M",
      help: "chunk versions (design columns)",
      read: integerReader(),
      usageOnly: true,
    },
    {
      name: "p-present",
      type: "string",
      placeholder: "p",
      help: "probability that a version is present in a masked episode",
      read: numberReader(),
      usageOnly: true,
    },
    {
      name: "resid-sd",
      type: "string",
      placeholder: "s",
      help: "residual standard deviation of the paired delta",
      read: numberReader(),
      usageOnly: true,
    },
    {
      name: "from",
      type: "string",
      role: "input",
      placeholder: "<dir>",
      help: `take N, M, p, the residual SD and (unless --effects) the
effects from a past gate's contributions.json (and K from
its selection.json); explicit options override`,
    },
    {
      name: "effects",
      type: "string",
      placeholder: "list",
      help: "true effects, one per column (default: zero, or --from's estimates)",
    },
    {
      name: "budget-k",
      type: "string",
      placeholder: "K",
      help: `active skill budget (default: --from's, else min(${DEFAULTS.powerBudgetCap}, M))`,
      read: integerReader(),
    },
    {
      name: "sims",
      type: "string",
      placeholder: "S",
      help: "simulated gates",
      default: DEFAULTS.powerSims,
      read: integerReader(),
    },
    { ...seed, placeholder: "S", help: "simulation seed" },
    { ...metric, placeholder: "m", help: "metric read with --from" },
    { ...out, help: "where power.json, power.md, power.tex go (not the --from directory)" },
    labelPrefix,
    { ...quiet, help: "print only the summary line" },
  ],
  required: ["out"],
});

/** `gate study`. */
export const STUDY = command({
  name: "study",
  summary: "paper statistics for a study",
  synopsis: "<study_dir> --out <dir> [--quiet]",
  about: `Reads <study_dir>/study.json (plan), slots.jsonl and attempts.jsonl and writes
<out>/study.json, <out>/study_tables.md and <out>/study_tables.tex.
Input issues: <out>/validation.json only, exit 2.`,
  positionals: { min: 1, max: 1, what: "study directory", role: "input" },
  options: [{ ...out, usageOnly: true }, { ...quiet, usageOnly: true }, labelPrefix],
  required: ["out"],
});

/** `gate reward`. */
export const REWARD = command({
  name: "reward",
  summary: "level-to-reward recipes",
  synopsis: `<steps.jsonl> --recipe A|B|C --out <dir> [--prm-weights FILE]
         [--groups groups.jsonl] [--bootstrap ${DEFAULTS.draws}] [--seed ${DEFAULTS.seed}] [--quiet]`,
  about: `Writes <out>/rewards.jsonl, rewards_meta.json, reward_tables.md and .tex; with
--groups also recipe_comparison.json (all recipes A, B, C) and its table.
--prm-weights: JSON object {"<trajectory_id>:<order>": weight > 0}; missing steps weigh 1.
Input issues: <out>/validation.json only, exit 2.`,
  positionals: { min: 1, max: 1, what: "steps file", role: "input" },
  options: [
    {
      name: "recipe",
      type: "string",
      placeholder: "A|B|C",
      help: "the recipe whose rewards are written",
      read: choiceReader(RewardsMetaSchema.shape.recipe.options),
      usageOnly: true,
    },
    {
      name: "prm-weights",
      type: "string",
      role: "input",
      placeholder: "FILE",
      help: "PRM weights per step (JSON)",
      usageOnly: true,
    },
    {
      name: "groups",
      type: "string",
      role: "input",
      placeholder: "groups.jsonl",
      help: "labelled trajectory groups: compare the recipes",
      usageOnly: true,
    },
    {
      ...bootstrap,
      help: "recipe-comparison draws",
      read: integerReader({ min: 1 }),
      usageOnly: true,
    },
    { ...seed, usageOnly: true },
    { ...out, usageOnly: true },
    { ...quiet, usageOnly: true },
    labelPrefix,
  ],
  required: ["recipe", "out"],
});

/** `gate report`. */
export const REPORT = command({
  name: "report",
  summary: "self-contained HTML report",
  synopsis: "<dir>... --out <dir> [--title TEXT] [--pdf]",
  about: `Writes <dir>/report.html: one self-contained HTML report (tables, inline SVG
figures, no script, no network) of every output directory given, in the
order a paper reads: gate analyses, pooled rounds, sequential re-analyses,
history, held-out checks, power plan, Gate B, ladder gates, study, reward
recipes, audits. It reads contributions.json and selection.json (gate analyze),
sequential.json (sequential), history.json, heldout.json, power.json
(plan-power), comparison.json (compare), ladder_result.json (ladder),
study.json, recipe_comparison.json (reward) and the validation.json of
ledger-audit and firewall (their findings). Each section lists its inputs' sha256,
generator, seed and draws. Also writes <dir>/figures/<name>.svg, and with
rsvg-convert .png and the vector .pdf a paper includes, each with a
<name>.tex float (caption, label); and <dir>/report.json.`,
  width: 16,
  positionals: { min: 1, what: "output directory", role: "input" },
  options: [
    { ...out, help: "output directory (required; not one of the inputs)" },
    {
      name: "title",
      type: "string",
      placeholder: "<text>",
      help: 'page title (default "gatelab report")',
    },
    {
      name: "pdf",
      type: "boolean",
      help: `also print report.pdf with headless Chromium; needs the
chromium program and permission to run it
(deno task report-pdf ... grants it; deno task gate does not)`,
    },
    labelPrefix,
    { ...quiet, help: "print only the summary line (all report prints)" },
  ],
  required: ["out"],
});

/** `gate sql`. */
export const SQL = command({
  name: "sql",
  summary: "SQL over loaded runs (DuckDB)",
  synopsis: '<dir or gatelab.yaml>... --query "<SQL>" [--out file.csv]',
  about: `Loads gates (plan, assignments, masked and bare runs), runs and analysis
outputs (gate analyze --out directories) into DuckDB (in memory) and runs
one query. Tables: runs, attempts, rewards, injected, gates, versions,
assignments (see docs/validation.md); from outputs: outputs, coefficients,
tasks, selection, draws, one row set per output with an \`output\` column
naming its directory (docs/FORMAT.md, "Tidy tables"); any other gatelab
output brings its command's table (splits, mde, comparison, ...). Only the
tables the query names are loaded. An import's --out (gate import) stands
for its gates, a study file (gatelab.yaml) for every output its gate build
wrote. The session is read-only: it runs one statement that DuckDB
reads as a query (SELECT, WITH ... SELECT, VALUES, FROM, TABLE, PIVOT,
UNPIVOT, DESCRIBE, SHOW, SUMMARIZE or EXPLAIN); anything else, or a second
statement, is refused.`,
  width: 20,
  positionals: { min: 1, what: "gate, run or output directory", role: "input" },
  options: [
    {
      name: "query",
      type: "string",
      short: "q",
      placeholder: "<sql>",
      help: "the SQL to run (required)",
      requiredAs: '"<SQL>"',
    },
    {
      ...out,
      placeholder: "<file.csv>",
      help: `write the result as CSV instead of printing it (its directory
must exist and it must not be inside an input; the file is
replaced atomically; numbers are exact; text cells starting
with = + - @ get a leading ' so spreadsheets show them as text)`,
    },
    {
      name: "max-rows",
      type: "string",
      placeholder: "<n>",
      help: "rows printed",
      default: 100,
      read: integerReader({ min: 0 }),
    },
    {
      name: "full-precision",
      type: "boolean",
      help: `print doubles exactly (shortest round-trip form) instead of
the shortest decimal within 1e-12 of each`,
    },
    {
      name: "timeout",
      type: "string",
      placeholder: "<seconds>",
      help: "stop the query after this long; 0: no limit",
      default: DEFAULTS.sqlTimeoutSeconds,
      read: numberReader({ min: 0 }),
    },
    cache,
    { ...quiet, help: "no warnings about what could not be loaded" },
  ],
  required: ["query"],
});

/** `gate ledger-audit`. */
export const LEDGER_AUDIT = command({
  name: "ledger-audit",
  summary: "audit a proposal ledger",
  synopsis: "<ledger.jsonl> --out <dir> [--history <dir>]",
  about: `Checks every line of a proposal ledger against the ledger schema
(docs/FORMAT.md, Extensions) and the proposal rules: operation_invalid,
rewrite_target_missing, reproposed_rejected, dimension_cap, and with
--history (a gate history output directory) ledger_result_mismatch against
the analysis of the line's proposal checkpoint.`,
  width: 18,
  positionals: { min: 1, max: 1, what: "ledger file", role: "input" },
  options: [
    out,
    {
      name: "history",
      type: "string",
      role: "input",
      placeholder: "<dir>",
      help: "directory with history.json (gate history) to check results against",
    },
    quiet,
  ],
  required: ["out"],
});

/** `gate firewall`. */
export const FIREWALL = command({
  name: "firewall",
  summary: "gold firewall audit of deployable texts",
  synopsis: "--texts <chunks.jsonl|cards.jsonl>... --gold <gold.jsonl> --out <dir>",
  about: `Scans every deployable text for gold information: chunk texts, the
deployable_abstraction of failure cards (their privileged_audit may hold
gold) and success cards whole. Findings: gold_asin (any ASIN-shaped token),
task_id_leak, title_leak (a gold title or a long verbatim span of one after
normalisation), instance_identifier. Exit 2 when anything is found; every
finding is listed with file, line, field, span and the gold item it matches.`,
  width: 17,
  positionals: { max: 0 },
  options: [
    {
      name: "texts",
      type: "string",
      multiple: true,
      role: "input",
      placeholder: "<file>",
      help: "a chunks or cards JSONL file (repeat for several)",
    },
    {
      name: "gold",
      type: "string",
      role: "input",
      placeholder: "<file>",
      help: "gold.jsonl: {task_id, gold_asin, product_title, identifiers}",
      requiredAs: "<gold.jsonl>",
    },
    out,
    quiet,
  ],
  required: ["out", "gold"],
});

/** `gate history`. */
export const HISTORY = command({
  name: "history",
  summary: "chunk lifecycles and lineage across gates",
  synopsis: "<gate_dir_or_analysis_dir>... --out <dir> [options]",
  about: `Reads the gates of a training history in order (Gate A, then one online gate
or pooled rounds per later checkpoint): analysis directories as written by
gate analyze, or gate directories analysed now (rounds sharing one bare run
are pooled into one step). Checks lineage (lineage_mismatch, version_reused),
builds every chunk's lifecycle across steps and the descriptive
internalization screen, and writes history.json, history.md/.tex and the
figures history_lifecycle and history_trajectories (docs/history.md).`,
  width: 24,
  positionals: { min: 1, what: "gate or analysis directory", role: "input" },
  options: [
    out,
    {
      name: "allow-lineage-gaps",
      type: "boolean",
      help: "record lineage issues as warnings instead of failing",
    },
    { ...bootstrap, help: "task-bootstrap draws for gates analysed now", default: 0 },
    seed,
    { ...cache, help: "read runs of gates analysed now through the run cache" },
    noPng,
    labelPrefix,
    quiet,
  ],
  required: ["out"],
});

/** `gate sequential`. */
export const SEQUENTIAL = command({
  name: "sequential",
  summary: "anytime-valid confidence sequences over a gate's prefixes",
  synopsis: "<gate_dir>... --out <dir> [options]",
  about: `Validates the gate (rounds sharing one bare run are pooled), orders its
paired rows, and fits the no-intercept OLS on every prefix n = M + 2 .. N.
For every metric and version: estimate, classical SE, the anytime-valid
confidence sequence and e-value (Lindon et al.; Gaussian, homoskedastic
errors given the design), their running intersection and maximum, when
the sign is certified and when the point selection settles, and the
rollouts a stop there would have saved. Writes sequential.json,
sequential.md/.tex and the figures sequential_funnel_<metric> and
sequential_selection_<metric>.`,
  width: 19,
  positionals: { min: 1, what: "gate directory", role: "input" },
  options: [
    out,
    {
      name: "order",
      type: "string",
      placeholder: "<o>",
      help: `run (masked completion order in traces.jsonl; default),
task (split, task_id, sample_id) or random`,
      read: choiceReader(SequentialSchema.shape.order.options),
    },
    { ...seed, help: "seed of --order random" },
    {
      name: "alpha",
      type: "string",
      placeholder: "<a>",
      help: "error level of the confidence sequences",
      default: DEFAULTS.alpha,
      read: numberReader({ min: 0, max: 1, open: true }),
    },
    {
      name: "phi",
      type: "string",
      placeholder: "<p>",
      help: "mixture precision",
      default: 1,
      read: numberReader({ min: 0, open: true }),
    },
    {
      name: "every",
      type: "string",
      placeholder: "<b>",
      help: "report every b-th prefix, always N",
      default: 1,
      read: integerReader({ min: 1 }),
    },
    noPng,
    labelPrefix,
    quiet,
  ],
  required: ["out"],
});

const IMPORT_MAP = COMMON.map;

const IMPORT_OUT = { ...out, help: "output directory (replaced whole)" } as const;

const IMPORT_TABLE_COMMAND = command({
  name: "import table",
  summary: `CSV, TSV, Parquet or JSON Lines files, one row per rollout attempt
(an arm column), or gatelab's own tasks table (gate analyze's
tasks.csv/tasks.parquet: one row per paired row)`,
  synopsis: "<file>... [--map <mapping.json>] [--max-rows <n>] --out <dir>",
  positionals: { min: 1, what: "table file", role: "input" },
  options: [
    IMPORT_MAP,
    {
      name: "max-rows",
      type: "string",
      placeholder: "<n>",
      help: `table: rows read at most over all files, and 512 bytes of
input per row (docs/import.md, "Limits")`,
      default: DEFAULTS.importMaxRows,
      read: integerReader({ min: 1, max: 1e12 }),
    },
    IMPORT_OUT,
    quiet,
  ],
  required: ["out"],
});

const IMPORT_INSPECT_COMMAND = command({
  name: "import inspect",
  summary: "inspect_ai logs (.eval or .json): one bare log, one or more masked logs",
  synopsis: "--bare <log> --masked <log>... [--map <mapping.json>] --out <dir>",
  // `--masked a.eval b.eval`: the logs after --masked are masked logs too.
  positionals: { min: 0, what: "masked log", role: "input" },
  options: [
    {
      name: "bare",
      type: "string",
      role: "input",
      placeholder: "<log>",
      help: "the bare run's inspect_ai log",
      usageOnly: true,
    },
    {
      name: "masked",
      type: "string",
      multiple: true,
      role: "input",
      placeholder: "<log>",
      help: "a masked round's inspect_ai log (repeat, or list them after it)",
      usageOnly: true,
    },
    IMPORT_MAP,
    IMPORT_OUT,
    {
      name: "max-entry-bytes",
      type: "string",
      role: "value",
      placeholder: "<n>",
      help: `the largest part of a log read, uncompressed (a .eval
zip entry; a .json log's member or sample); default
256MiB; <n> in bytes or with KiB, MiB, GiB`,
    },
    quiet,
  ],
  required: ["out", "bare"],
});

/** `gate import table|inspect`: one help text, one first word. */
export const IMPORT: CommandGroup = {
  name: "import",
  summary: "import tables (CSV, TSV, Parquet, JSONL) or inspect_ai logs as gates",
  about: `Writes contract directories (one bare run per checkpoint and split, one gate
per masked round) and import.json into <dir> (docs/import.md).`,
  width: 14,
  subcommandWidth: 10,
  members: [IMPORT_TABLE_COMMAND, IMPORT_INSPECT_COMMAND],
};

/** `gate import table`. */
export const IMPORT_TABLE = { ...IMPORT_TABLE_COMMAND, group: IMPORT } as const;

/** `gate import inspect`. */
export const IMPORT_INSPECT = { ...IMPORT_INSPECT_COMMAND, group: IMPORT } as const;

const NOTEBOOK_NEW_COMMAND = command({
  name: "notebook new",
  summary: "a notebook of your own, outside the clone, that imports this gatelab",
  synopsis: "<name> [--from <notebook>]",
  positionals: { min: 1, max: 1, what: "notebook name", role: "value" },
  options: [
    {
      name: "from",
      type: "string",
      placeholder: "<notebook>",
      help: `the project notebook it starts from: a name or unique
prefix: 01, 05_raw_traces_sql`,
      default: "01",
    },
    quiet,
  ],
});

/** `gate notebook new`: one help text, one first word. */
export const NOTEBOOK: CommandGroup = {
  name: "notebook",
  summary: "notebooks of your own, in your study folder",
  about: `Writes <name>.ipynb in your folder from one of gatelab's notebooks, importing
this gatelab by its absolute location, with the demo's paths made absolute and
its figures and cache kept beside it (docs/notebooks.md, "Your own notebook").`,
  width: 19,
  subcommandWidth: 10,
  members: [NOTEBOOK_NEW_COMMAND],
};

/** `gate notebook new`. */
export const NOTEBOOK_NEW = { ...NOTEBOOK_NEW_COMMAND, group: NOTEBOOK } as const;

/** `gate ladder`. */
export const LADDER = command({
  name: "ladder",
  summary: "e-process ladder gate: W/L/E/INFRA, four exits, baseline prefill",
  synopsis: "<ladder_dir> --out <dir> [options]",
  about: `Reads ladder.json and units.jsonl, pairs the base and candidate arms unit by
unit (W, L, E, INFRA; an AR pair folds by AND), evaluates the accept and
reject e-processes after every block and finds the exit (infra_abort, accept,
reject, budget_exhausted, checked in that order). Writes ladder_result.json,
ladder.md/.tex and the figure ladder_<task_type>. A decision recorded in
ladder.json that differs from the recomputed one is decision_mismatch (exit 2).`,
  width: 21,
  positionals: { min: 1, max: 1, what: "ladder directory", role: "input" },
  options: [
    out,
    {
      name: "prefill",
      type: "string",
      role: "input",
      placeholder: "<file>",
      help: `a baseline run of the base arm (units.jsonl with
task_type, unit_id, skill_sha256, prompts_version,
members): how many base-arm units a prefilled
content-addressed cache would have served`,
    },
    { ...noPng, help: "skip the PNG copy of the figure" },
    labelPrefix,
    quiet,
  ],
  required: ["out"],
});

/** `gate build`. */
export const BUILD = command({
  name: "build",
  summary: "build a study (gatelab.yaml): every step, incrementally, in parallel",
  synopsis: "[gatelab.yaml] [options]",
  about: `Builds the study the file declares (default ./gatelab.yaml; docs/build.md):
its imports and steps in dependency order, each into <out>/<id>/ exactly as
the command run by hand writes it, independent ones at once. A step whose
command, options, inputs, upstream steps and gatelab code are those of its
last build is up to date and not run again.`,
  width: 14,
  positionals: { max: 1, what: "study file", role: "input" },
  options: [
    { ...out, help: "output root (default: the file's out:, relative to the file)" },
    {
      name: "jobs",
      type: "string",
      placeholder: "<N>",
      help: "steps run at once (default: the number of cores)",
      read: integerReader({ min: 1 }),
    },
    {
      name: "dry-run",
      type: "boolean",
      help: "print what would run and why; run and write nothing",
    },
    {
      name: "only",
      type: "string",
      multiple: true,
      placeholder: "<id>",
      help: "build this step and what it reads (repeatable)",
    },
    {
      name: "graph",
      type: "boolean",
      help: `print the dependency graph; write it as <out>/graph/study.mmd
(Mermaid) and study.dot (Graphviz); run nothing else`,
    },
    { ...quiet, help: "print only the summary line and failures" },
  ],
});
