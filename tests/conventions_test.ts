/**
 * One table of conventions (lib/core/conventions.ts): every command that
 * takes --cov or --interval reads it (any case accepted, an unknown name
 * refused with exit 2 and one line listing the table's names), every help
 * text lists exactly its names, the library normalises the same way, the
 * output schema allows exactly its interval names, and docs/analysis.md and
 * the README list exactly them.
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import {
  choiceList,
  COV_TYPES,
  COVARIANCE_TYPES,
  INTERVAL_NAMES,
  INTERVAL_TYPES,
} from "../lib/core/conventions.ts";
import { resolveAnalyzeOptions } from "../lib/analyze/mod.ts";
import { BootstrapBlockSchema } from "../lib/contract/outputs/contributions.ts";
import { bootstrapDataset, bootstrapToJson } from "../lib/infer/bootstrap/bootstrap.ts";
import { bootstrapFixture } from "./infer_fixture.ts";
import { capturedMain } from "./fixtures.ts";

const root = new URL("..", import.meta.url).pathname;

/** Runs main() with console captured, in an empty directory that must stay empty. */
async function run(args: string[]): Promise<{ code: number; log: string; err: string }> {
  const { value, log, err } = await capturedMain(args);
  return { code: value, log, err };
}

/** The commands `gate --help` lists. */
async function commandNames(): Promise<string[]> {
  const { code, log } = await run(["--help"]);
  equal(code, 0);
  return [...log.matchAll(/^ {2}([a-z][a-z-]*) {2,}\S/gm)].map((m) => m[1]!);
}

const OPTIONS = [
  { option: "cov", names: COV_TYPES },
  { option: "interval", names: INTERVAL_NAMES },
] as const;

/** `a, b or c`, as the CLI's refusals list choices. */
function orList(names: readonly string[]): string {
  return names.length === 1
    ? names[0]!
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** lower, UPPER, Capitalised and aLtErNaTiNg spellings of a name. */
function caseVariants(name: string): string[] {
  const alternating = [...name].map((c, i) => i % 2 ? c.toUpperCase() : c.toLowerCase()).join("");
  return [
    ...new Set([
      name,
      name.toUpperCase(),
      name[0]!.toUpperCase() + name.slice(1),
      alternating,
    ]),
  ];
}

Deno.test("conventions: the table's names are lowercase, unique, and labels match them", () => {
  for (const table of [COVARIANCE_TYPES, INTERVAL_TYPES]) {
    const names = table.map((c) => c.name as string);
    equal(new Set(names).size, names.length);
    for (const c of table) {
      equal(c.name, c.name.toLowerCase(), c.name);
      equal(c.label.toLowerCase(), c.name, c.label);
      ok(c.help.length > 0 && !c.help.includes("\n"), `${c.name}: one-line help`);
    }
  }
  deepEqual(COV_TYPES, ["hc0", "hc1", "hc2", "hc3"]);
  deepEqual(INTERVAL_NAMES, ["percentile", "bca"]);
});

Deno.test("conventions: every command's help lists exactly the table's names for --cov and --interval", async () => {
  const names = await commandNames();
  ok(names.length >= 10 && names.includes("analyze"), names.join(" "));
  const taking: string[] = [];
  for (const name of names) {
    const { code, log } = await run([name, "--help"]);
    equal(code, 0, name);
    for (const { option, names: choices } of OPTIONS) {
      const line = log.split("\n").find((l) => l.trimStart().startsWith(`--${option} <`));
      if (line === undefined) {
        ok(
          !new RegExp(`--${option}\\b`).test(log),
          `${name} mentions --${option} without its line`,
        );
        continue;
      }
      taking.push(`${name} --${option}`);
      const listed = line.match(/^\s*--\S+ <\w+>\s+(\S+(?: \| \S+)*)/)?.[1];
      equal(listed, choiceList(choices), `${name}: ${line}`);
    }
  }
  deepEqual(taking, ["analyze --cov", "analyze --interval"]);
});

Deno.test("conventions: every command accepts every case of every name and refuses others with exit 2, one line", async () => {
  for (const { option, names } of OPTIONS) {
    for (const name of names) {
      for (const variant of caseVariants(name)) {
        // The gate directory does not exist: the command gets past its
        // options and refuses the missing directory instead.
        const r = await run(["analyze", "missing-gate", "--out", "o", `--${option}`, variant]);
        equal(r.code, 2, `--${option} ${variant}`);
        ok(!r.err.includes(`--${option}`), `--${option} ${variant} refused: ${r.err}`);
        match(r.err, /missing-gate/, `--${option} ${variant}`);
      }
    }
    for (const bad of ["x", `${names[0]}x`, "cr2", ""]) {
      const r = await run(["analyze", "missing-gate", "--out", "o", `--${option}`, bad]);
      equal(r.code, 2, `--${option} ${bad}`);
      equal(r.log, "");
      equal(
        r.err,
        `usage_error  --${option} must be ${orList(names)}, got "${bad}"`,
      );
    }
  }
});

Deno.test("conventions: the library reads covType in any case and refuses an unknown one", () => {
  const dataset = { metrics: ["reward"], gates: [{ budget_k: 1 }] } as never;
  for (const name of COV_TYPES) {
    for (const variant of caseVariants(name)) {
      equal(resolveAnalyzeOptions(dataset, { covType: variant as never }).covType, name);
    }
  }
  throws(
    () => resolveAnalyzeOptions(dataset, { covType: "cr1" as never }),
    { name: "RangeError", message: `covType must be hc0 | hc1 | hc2 | hc3, got "cr1"` },
  );
});

Deno.test("conventions: the bootstrap reads interval in any case: BCA gives the bytes of bca", () => {
  for (const name of INTERVAL_NAMES) {
    const canonical = JSON.stringify(
      bootstrapToJson(bootstrapDataset(bootstrapFixture(), { draws: 60, seed: 3, interval: name })),
    );
    ok(canonical.includes(`"interval":"${name}"`), name);
    for (const variant of caseVariants(name).slice(1)) {
      const json = bootstrapToJson(
        bootstrapDataset(bootstrapFixture(), { draws: 60, seed: 3, interval: variant as never }),
      );
      equal(JSON.stringify(json), canonical, variant);
    }
  }
  throws(
    () => bootstrapDataset(bootstrapFixture(), { draws: 10, seed: 3, interval: "basic" as never }),
    { name: "RangeError", message: `interval must be percentile | bca, got "basic"` },
  );
});

Deno.test("conventions: contributions.json's bootstrap.interval allows exactly the table's names", () => {
  deepEqual(BootstrapBlockSchema.shape.interval.options, [...INTERVAL_NAMES]);
});

Deno.test("conventions: docs/analysis.md's table and the usage lines list exactly the table", async () => {
  const doc = await Deno.readTextFile(`${root}docs/analysis.md`);
  const start = doc.indexOf("**Conventions.**");
  ok(start >= 0, "docs/analysis.md has a Conventions paragraph");
  const rows = doc.slice(start).split("\n\n")[1]!.split("\n").slice(2)
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  const expected = [
    ...COVARIANCE_TYPES.map((
      c,
    ) => [c.covOption ? "`--cov`" : "(always)", `\`${c.name}\``, c.label, c.help]),
    ...INTERVAL_TYPES.map((c) => ["`--interval`", `\`${c.name}\``, c.label, c.help]),
  ];
  deepEqual(rows, expected);
  ok(doc.includes(`\`--cov\` (\`${choiceList(COV_TYPES)}\``), "the se_robust bullet");
  ok(doc.includes(`[--interval ${INTERVAL_NAMES.join("|")}]`), "the usage line");
  const readme = await Deno.readTextFile(`${root}README.md`);
  ok(readme.includes(`[--interval ${INTERVAL_NAMES.join("\\|")}]`), "the README's command table");
});
