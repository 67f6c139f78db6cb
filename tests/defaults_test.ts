/**
 * One place for defaults (lib/core/defaults.ts): the CLI, the library, the
 * notebooks' parameters and the docs agree with `DEFAULTS`, and no copy of
 * a default literal hides in lib/ code (a copy would silently keep the old
 * value when the default changes).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { DEFAULTS } from "../lib/core/defaults.ts";
import { parseCommand } from "../lib/cli/args.ts";
import { COMMANDS } from "../lib/cli/command_table.ts";
import { ANALYZE } from "../lib/cli/commands.ts";
import { resolveAnalyzeOptions } from "../lib/analyze/mod.ts";
import { studyPlanSchema } from "../lib/study/schema.ts";

const root = new URL("..", import.meta.url).pathname;

async function filesUnder(dir: string, suffix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await filesUnder(path, suffix));
    else if (e.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

Deno.test("defaults: the frozen object holds the documented values", () => {
  ok(Object.isFrozen(DEFAULTS));
  deepEqual({ ...DEFAULTS }, {
    seed: 20260927,
    draws: 10000,
    alpha: 0.05,
    power: 0.8,
    metric: "reward",
    covType: "hc3",
    interval: "percentile",
    powerSims: 2000,
    powerBudgetCap: 10,
    sqlTimeoutSeconds: 60,
    importMaxRows: 1_000_000,
  });
});

Deno.test("defaults: the CLI readers and the library boundaries fall back to DEFAULTS", () => {
  const cli = parseCommand(["g", "--out", "o"], ANALYZE)!.values;
  deepEqual([cli.bootstrap, cli.seed, cli.interval, cli.cov, cli.metric], [
    DEFAULTS.draws,
    DEFAULTS.seed,
    DEFAULTS.interval,
    DEFAULTS.covType,
    DEFAULTS.metric,
  ]);
  // One default seed for every command that takes --seed.
  for (const decl of COMMANDS) {
    const seed = decl.options.find((o) => o.name === "seed");
    if (seed !== undefined) equal(seed.default, DEFAULTS.seed, decl.name);
  }
  const r = resolveAnalyzeOptions({ metrics: ["reward"], gates: [{ budget_k: 1 }] } as never);
  deepEqual([r.metric, r.covType], [DEFAULTS.metric, DEFAULTS.covType]);
  const plan = studyPlanSchema.parse({ format: "gatelab.studyplan/v1", comparisons: [] });
  deepEqual(plan.bootstrap, { draws: DEFAULTS.draws, seed: DEFAULTS.seed });
});

/**
 * Copies of default literals in lib/ code lines (comments are prose and
 * examples; lib/demo holds the demo's fixed input data, whose study plan
 * names its bootstrap explicitly).
 */
const STRAY: readonly [RegExp, string][] = [
  [new RegExp(`\\b${DEFAULTS.seed}\\b`), "the default seed"],
  [/\b10_?000\b/, "the default draw count"],
  [/\?\?\s*(?:0\.05|0\.8|2000|"hc3"|"reward"|"percentile")(?![\w.])/, "a default option value"],
  [/Option\([^)]*,\s*(?:0\.05|2000|10_?000|20260927)\b/, "a CLI fallback"],
  [/\(default (?:hc3|percentile|reward|0\.05|2000)\)/, "a help text default"],
  [/Math\.min\(10,/, "the power plan's budget cap"],
];

Deno.test("defaults: no stray copy of a default literal in lib/ code", async () => {
  const found: string[] = [];
  for (const file of await filesUnder(join(root, "lib"), ".ts")) {
    const rel = file.slice(root.length);
    if (rel === "lib/core/defaults.ts" || rel.startsWith("lib/demo/")) continue;
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, i) => {
      const code = line.trim();
      if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) {
        // JSDoc `@default` names DEFAULTS instead of repeating the value.
        if (/@default \{(?:20260927|10_?000|0\.05|2000|"hc3"|"percentile")\}/.test(code)) {
          found.push(`${rel}:${i + 1}: @default repeats a value of DEFAULTS: ${code}`);
        }
        return;
      }
      for (const [pattern, what] of STRAY) {
        if (pattern.test(line)) found.push(`${rel}:${i + 1}: ${what}: ${code}`);
      }
    });
  }
  deepEqual(found, []);
});

/**
 * The files that read `DEFAULTS` in code: each option group's resolver (or
 * the door of a public function whose options no resolver covers), the
 * CLI's option declarations, and the table builders that read an output
 * view which may leave a convention out. A default read anywhere else is an
 * option resolved a second time below its door.
 */
const DOORS = [
  "lib/analyze/analyze_options.ts", // resolveAnalyzeOptions
  "lib/analyze/tables.ts", // a view of contributions.json without its conventions
  "lib/cli/commands.ts", // the command table's defaults
  "lib/cli/common_options.ts", // the common options' defaults
  "lib/core/bootstrap_options.ts", // resolveBootstrapOptions: every bootstrap's draws and seed
  "lib/explore/legacy_intercept.ts", // legacyComparison
  "lib/fit/ols.ts", // fitOls
  "lib/heldout/heldout.ts", // the heldout plan's metric; againstLaterGate
  "lib/import/limits.ts", // the import's --max-rows default, DEFAULT_MAX_ROWS
  "lib/infer/bootstrap/task_bootstrap_options.ts", // resolveTaskBootstrapOptions
  "lib/infer/diagnostics/diagnostics.ts", // interactionScreen
  "lib/power/power.ts", // resolvePowerOptions, the MDE's alpha and power
  "lib/power/power_from.ts", // powerInputsFromContributions
  "lib/sequential/order.ts", // rowOrder
  "lib/sequential/sequential.ts", // resolveSequentialOptions
  "lib/sql/engine.ts", // openDuckDb's timeout
  "lib/study/schema.ts", // study.json's bootstrap block
];

Deno.test("defaults: DEFAULTS is read only where an option group is resolved", async () => {
  const readers: string[] = [];
  for (const file of await filesUnder(join(root, "lib"), ".ts")) {
    const rel = file.slice(root.length);
    if (rel === "lib/core/defaults.ts" || rel.startsWith("lib/demo/")) continue;
    const code = (await Deno.readTextFile(file)).split("\n").filter((line) => {
      const t = line.trim();
      return !(t.startsWith("*") || t.startsWith("//") || t.startsWith("/*") ||
        t.startsWith("import"));
    });
    if (code.some((line) => /\bDEFAULTS\./.test(line))) readers.push(rel);
  }
  deepEqual(readers, DOORS);
});

Deno.test("defaults: the stray-literal patterns catch what they are meant to", () => {
  const hits = (line: string) => STRAY.filter(([p]) => p.test(line)).map(([, w]) => w);
  deepEqual(hits(`  const seed = options.seed ?? 20260927;`), ["the default seed"]);
  deepEqual(hits(`  const draws = intOption("bootstrap", values.bootstrap, 10_000, { min: 1 });`), [
    "the default draw count",
    "a CLI fallback",
  ]);
  deepEqual(hits(`  const alpha = options.alpha ?? 0.05;`), ["a default option value"]);
  deepEqual(hits(`  --cov <type>  hc0 | hc1 | hc2 | hc3 (default hc3)`), ["a help text default"]);
  deepEqual(hits(`  const alpha = options.alpha ?? DEFAULTS.alpha;`), []);
  deepEqual(hits(`  const q = options.qLow ?? 0.025;`), []);
});

interface Cell {
  cell_type: string;
  source: string | string[];
  metadata: { tags?: string[] };
}

Deno.test("defaults: the notebooks' parameters cells use the default seed and name the CLI's draw count", async () => {
  let seeds = 0, mentions = 0;
  const dir = join(root, "notebooks");
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".ipynb")) names.push(e.name);
  for (const file of names.sort().map((n) => join(dir, n))) {
    const nb = JSON.parse(await Deno.readTextFile(file)) as { cells: Cell[] };
    const cell = nb.cells.find((c) => c.metadata.tags?.includes("parameters"));
    if (!cell) continue;
    const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    for (const m of source.matchAll(/^let SEED = (\d+);/gm)) {
      equal(Number(m[1]), DEFAULTS.seed, `${file}: SEED`);
      seeds++;
    }
    for (const m of source.matchAll(/the CLI default is ([\d,]+)/g)) {
      equal(Number(m[1]!.replaceAll(",", "")), DEFAULTS.draws, `${file}: CLI default`);
      mentions++;
    }
  }
  deepEqual([seeds, mentions], [4, 2]);
});

/** Statements of a default in README.md and docs/*.md, and the key they state. */
const DOC_CLAIMS: readonly [RegExp, keyof typeof DEFAULTS][] = [
  [/default(?: seed)? (\d{8})\b/g, "seed"],
  [/left out \([\d,]+ draws, seed (\d+)\)/g, "seed"],
  [/(?:default|Default B =) ([\d,]{5,6})(?:\)| draws|\.)/g, "draws"],
  [/left out \(([\d,]+) draws/g, "draws"],
  [/\[--bootstrap (\d+)\]/g, "draws"],
  [/--sims`?, default (\d+)/g, "powerSims"],
  [/alpha`? \((0\.\d+)\)/g, "alpha"],
  [/\[--alpha (0\.\d+)\]/g, "alpha"],
  [/`--timeout`, default (\d+) seconds/g, "sqlTimeoutSeconds"],
  // README's "In notebooks and code".
  [/Defaults \(seed (\d+),/g, "seed"],
  [/, ([\d,]+) bootstrap draws, alpha/g, "draws"],
  [/bootstrap draws, alpha (0\.\d+),/g, "alpha"],
];

Deno.test("defaults: README and docs state the defaults DEFAULTS holds", async () => {
  const files = [join(root, "README.md"), ...await filesUnder(join(root, "docs"), ".md")];
  const texts = await Promise.all(files.map((f) => Deno.readTextFile(f)));
  for (const [pattern, key] of DOC_CLAIMS) {
    let count = 0;
    texts.forEach((text, i) => {
      for (const m of text.matchAll(pattern)) {
        count++;
        equal(
          Number(m[1]!.replaceAll(",", "")),
          DEFAULTS[key],
          `${files[i]!.slice(root.length)}: "${m[0]}" states ${key}`,
        );
      }
    });
    ok(count > 0, `no statement matches ${pattern}: the docs changed, update the pattern`);
  }
});
