/**
 * Round trip through a flat table: the demo's Gate A (data/demo/ckpt-a) is
 * exported to one row per rollout attempt by an independent script
 * (scripts/reference/export_gate_table.py: pandas and pyarrow, no gatelab
 * code), as CSV and as Parquet, imported back with `gate import table`
 * through the real CLI, and analysed. Every coefficient, standard error
 * (HC3, robust, cluster, bootstrap) and interval, every metric summary and
 * the selection equal the analysis of the demo gate itself, exactly (the
 * floats are written by Python's shortest round-trip repr, read back with
 * DuckDB's CSV reader and hyparquet).
 *
 * Without a mapping, the same CSV imports with every provenance field
 * unrecorded: validation passes with one provenance_unrecorded warning per
 * field, and analyze prints one line counting them.
 *
 * Needs `deno` and `python3` with pandas and pyarrow.
 */
import { readContributions } from "./contributions_file.ts";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkedImport, gate, ROOT, tempDir } from "./import_gate.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { EXIT_WITHOUT_TEARDOWN } from "./python_exit.ts";

const DEMO_GATE = join(ROOT, "data", "demo", "ckpt-a", "gate-a");
const ANALYZE = ["--bootstrap", "200", "--seed", "7", "--quiet"];

async function python(args: readonly string[], cwd?: string): Promise<void> {
  const out = await new Deno.Command("python3", {
    args: [...args],
    stdout: "piped",
    stderr: "piped",
    ...(cwd === undefined ? {} : { cwd }),
  }).output();
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

const EXPORTED = [
  "split",
  "task_id",
  "sample_id",
  "attempt",
  "status",
  "reward",
  "rewards",
  "injected",
  "job_seed",
  "success",
  "steps",
  "error",
];

/** The exported fields of every line of a traces.jsonl, in file order. */
async function traceLines(path: string): Promise<unknown[]> {
  const text = await Deno.readTextFile(path);
  return text.trim().split("\n").map((line) => {
    const l = JSON.parse(line);
    return Object.fromEntries(EXPORTED.map((k) => [k, l[k] ?? null]));
  });
}

/** The numbers of an analysis: metrics (without run references) and the selection's decisions. */
async function numbers(dir: string) {
  const c = await readContributions(dir);
  const s = JSON.parse(await Deno.readTextFile(join(dir, "selection.json")));
  return {
    metrics: c.metrics,
    bootstrap: c.bootstrap.metrics,
    n_pairs: c.n_pairs,
    columns: c.columns,
    tasks: c.tasks.map((t: { columns: unknown; values: unknown }) => [t.columns, t.values]),
    selected: s.selected,
    decisions: s.decisions,
    tie_tolerance: s.tie_tolerance,
  };
}

Deno.test({
  name: "import round trip: demo Gate A as CSV and Parquet gives the same analysis, exactly",
  ignore: ignoreWithout("python3", "import round trip"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    await python([join(ROOT, "scripts/reference/export_gate_table.py"), DEMO_GATE, "--out", t]);
    const original = await gate(t, ["analyze", DEMO_GATE, "--out", "original", ...ANALYZE]);
    equal(original.code, 0, original.stderr);
    const want = await numbers(join(t, "original"));
    ok(want.decisions.length === 14 && want.selected.length === 10);

    for (const table of ["table.csv", "table.parquet"]) {
      const out = `imported-${table}`;
      const imported = await gate(t, [
        "import",
        "table",
        table,
        "--map",
        "mapping.json",
        "--out",
        out,
      ]);
      equal(imported.code, 0, imported.stderr);
      const doc = checkedImport(
        JSON.parse(await Deno.readTextFile(join(t, out, "import.json"))),
      );
      deepEqual(doc.gates.map((g: { dir: string }) => g.dir), [
        "qwen3.5-4b-sft-rev-8d2f1c0/gate-a",
      ]);
      // The mapping gives every constant; only the plan (tasks) comes from the rows.
      deepEqual(doc.unrecorded.map((u: { field: string }) => u.field), ["tasks"]);
      const gateDir = join(out, doc.gates[0].dir);
      // Every exported trace field comes back as it was: nothing invented (a failed row's
      // reward stays null), nothing lost.
      for (const [mine, theirs] of [[doc.runs[0].dir, "../bare-val"], [doc.gates[0].dir, "."]]) {
        const got = await traceLines(join(t, out, mine, "traces.jsonl"));
        const want = await traceLines(join(DEMO_GATE, theirs, "traces.jsonl"));
        deepEqual(got, want, `${table} ${mine}`);
      }
      const validated = await gate(t, ["validate", gateDir, "--out", `${out}-validation`]);
      equal(validated.code, 0, validated.stdout + validated.stderr);
      match(validated.stdout, /ok: 1 gate\(s\), 400 paired rows, 14 columns, 7 metrics/);
      const analysed = await gate(t, ["analyze", gateDir, "--out", `${out}-analysis`, ...ANALYZE]);
      equal(analysed.code, 0, analysed.stderr);
      deepEqual(await numbers(join(t, `${out}-analysis`)), want, table);
    }
  },
});

Deno.test({
  name:
    "import round trip: demo checkpoint B's two pooled online rounds (REWRITE families) give the same analysis",
  ignore: ignoreWithout("python3", "import round trip, pooled rounds"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    const gates = ["gate-online-r1", "gate-online-r2"].map((g) =>
      join(ROOT, "data", "demo", "ckpt-b", g)
    );
    await python([join(ROOT, "scripts/reference/export_gate_table.py"), ...gates, "--out", t]);
    const original = await gate(t, ["analyze", ...gates, "--out", "original", ...ANALYZE]);
    equal(original.code, 0, original.stderr);
    const imported = await gate(t, [
      "import",
      "table",
      "table.parquet",
      "--map",
      "mapping.json",
      "--out",
      "imp",
    ]);
    equal(imported.code, 0, imported.stderr);
    const doc = checkedImport(
      JSON.parse(await Deno.readTextFile(join(t, "imp", "import.json"))),
    );
    deepEqual(doc.gates.map((g: { gate_id: string }) => g.gate_id), [
      "gate-online-r1",
      "gate-online-r2",
    ]);
    deepEqual(doc.runs.length, 1);
    const plan = JSON.parse(await Deno.readTextFile(join(t, "imp", doc.gates[0].dir, "gate.json")));
    ok(
      plan.slots.some((s: { versions: { role: string }[] }) =>
        s.versions.some((v) => v.role === "old")
      ),
    );
    const analysed = await gate(t, ["analyze", "imp", "--out", "an", ...ANALYZE]);
    equal(analysed.code, 0, analysed.stderr);
    deepEqual(await numbers(join(t, "an")), await numbers(join(t, "original")));
  },
});

Deno.test({
  name:
    "import without a mapping: everything unrecorded is a warning, analyze says how many in one line",
  ignore: ignoreWithout("python3", "import without a mapping"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    await python([join(ROOT, "scripts/reference/export_gate_table.py"), DEMO_GATE, "--out", t]);
    const imported = await gate(t, ["import", "table", "table.csv", "--out", "imp"]);
    equal(imported.code, 0, imported.stderr);
    const doc = checkedImport(
      JSON.parse(await Deno.readTextFile(join(t, "imp", "import.json"))),
    );
    const fields = doc.unrecorded.map((u: { field: string }) => u.field);
    deepEqual(fields, [
      "provenance.model",
      "provenance.endpoint",
      "provenance.sampling",
      "provenance.send_seed",
      "provenance.base_prompt_sha256",
      "provenance.environment",
      "provenance.runtime",
      "provenance.reward.version",
      "tasks",
      "mask_seed",
      "p_present",
    ]);
    deepEqual(
      doc.defaults.map((d: { field: string; value: unknown }) => [d.field, d.value]).slice(-2),
      [
        ["budget_k", 14],
        ["stage", "cold_start"],
      ],
    );
    const gateDir = join("imp", doc.gates[0].dir);
    const manifest = JSON.parse(await Deno.readTextFile(join(t, gateDir, "manifest.json")));
    equal(manifest.provenance.model, null);
    equal(manifest.provenance.checkpoint_id, "qwen3.5-4b-sft@rev-8d2f1c0");
    const analysed = await gate(t, ["analyze", gateDir, "--out", "an", "--bootstrap", "0"]);
    equal(analysed.code, 0, analysed.stderr);
    const lines = analysed.stdout.split("\n").filter((l) => l.startsWith("unverifiable:"));
    deepEqual(lines, [
      "unverifiable: 11 check(s) not made, fields not recorded (provenance.model, provenance.endpoint, " +
      "provenance.sampling, provenance.send_seed, ...); job seeds are recorded but not compared: " +
      "set provenance.send_seed in the mapping if the harness sent them; listed as provenance_unrecorded warnings in an/validation.json",
    ]);
    ok(!analysed.stderr.includes("provenance_unrecorded"), "no per-field lines from analyze");
    const validation = JSON.parse(await Deno.readTextFile(join(t, "an", "validation.json")));
    equal(validation.ok, true);
    deepEqual(validation.warnings.map((w: { path: string }) => w.path), fields);
    match(
      validation.warnings.find((w: { path: string }) => w.path === "provenance.send_seed").message,
      /job seeds are recorded but not compared: set provenance\.send_seed in the mapping/,
    );
    // contributions.json and the HTML report say which checks were not made.
    const contributions = JSON.parse(await Deno.readTextFile(join(t, "an", "contributions.json")));
    deepEqual(contributions.unverifiable.map((u: { field: string }) => u.field), fields);
    const report = await gate(t, ["report", "an", "--out", "rep"]);
    equal(report.code, 0, report.stderr);
    const html = await Deno.readTextFile(join(t, "rep", "report.html"));
    ok(html.includes("Checks not made: 11 field(s) not recorded by the inputs"), "report table");
    ok(html.includes("job seeds are recorded but not compared"), "report row");
    // A truncated Parquet file: exit 2, one line naming it, nothing written.
    const parquet = await Deno.readFile(join(t, "table.parquet"));
    await Deno.writeFile(join(t, "cut.parquet"), parquet.subarray(0, parquet.length - 100));
    const cut = await gate(t, ["import", "table", "cut.parquet", "--out", "cut"]);
    equal(cut.code, 2, cut.stderr);
    match(
      cut.stderr,
      /^parse_error {2}cut\.parquet {2}cannot read as Parquet \(not a Parquet file, or truncated\)/,
    );
    ok(!(await Deno.stat(join(t, "cut")).then(() => true, () => false)), "nothing written");
    // The import's --out stands for its gates wherever gate directories are taken.
    const whole = await gate(t, ["analyze", "imp", "--out", "an-whole", "--bootstrap", "0"]);
    equal(whole.code, 0, whole.stderr);
    deepEqual(
      JSON.parse(await Deno.readTextFile(join(t, "an-whole", "contributions.json"))).metrics,
      JSON.parse(await Deno.readTextFile(join(t, "an", "contributions.json"))).metrics,
    );
  },
});

Deno.test({
  name: "docs/import.md: the pandas example prints what the page shows",
  ignore: ignoreWithout("python3", "docs/import.md pandas example"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    const doc = await Deno.readTextFile(join(ROOT, "docs", "import.md"));
    const section = doc.slice(doc.indexOf("### A pandas example"));
    const script = /```python\n([\s\S]*?)```/.exec(section)![1]!;
    const shown = /```\n(\$ [\s\S]*?)```/.exec(section)![1]!.trimEnd().split("\n");
    await Deno.writeTextFile(join(t, "example.py"), script + EXIT_WITHOUT_TEARDOWN);
    await python([join(t, "example.py")], t);
    // Each `$ deno task gate ...` line, run as shown; its stdout lines follow it in the block.
    const got: string[] = [];
    for (const line of shown) {
      if (!line.startsWith("$ deno task gate ")) continue;
      got.push(line);
      const ran = await gate(t, line.slice("$ deno task gate ".length).split(" "));
      equal(ran.code, 0, ran.stderr);
      got.push(...ran.stdout.trimEnd().split("\n"));
    }
    deepEqual(got, shown);
  },
});
