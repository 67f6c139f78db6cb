/**
 * `gate analyze`'s tidy tables (coefficients, tasks, selection, draws)
 * against the JSON they come from: every number equal to the bit
 * (Object.is) in the CSV (read back by tests/tidy_read.ts's own parser and
 * `Number`) and in the Parquet (read by parquet-wasm), on the demo's Gate
 * A. The draws are checked against the JSON's bootstrap summaries they
 * must reproduce: the percentile interval's ends are draws themselves
 * (zero-based index floor(q (B - 1)) of the sorted draws).
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { COEFFICIENT_COLUMNS } from "../lib/analyze/analyze_tidy.ts";
import { captured, quiet, tempDir } from "./fixtures.ts";
import { readCsvColumns, readParquetColumns } from "./tidy_read.ts";
import { createPrng } from "../lib/math/prng.ts";
import { Matrix, solve } from "ml-matrix";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { taskRows } from "../lib/analyze/task_rows.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { readContributions } from "./contributions_file.ts";

const GATE = "data/demo/ckpt-a/gate-a";
const DRAWS = 60;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let cached: Promise<string> | null = null;
/** The demo gate analysed once per process, with saved draws. */
function analysed(): Promise<string> {
  cached ??= (async () => {
    const out = await Deno.makeTempDir({ prefix: "gatelab-tidy-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(out, { recursive: true }));
    const code = await quiet(() =>
      main([
        "analyze",
        GATE,
        "--out",
        out,
        "--bootstrap",
        String(DRAWS),
        "--seed",
        "3",
        "--save-draws",
        "--quiet",
      ])
    );
    deepEqual(code, 0);
    return out;
  })();
  return cached;
}

const readJson = async (path: string): Promise<Json> => JSON.parse(await Deno.readTextFile(path));

/** Both files of a table, as columns; numeric columns as numbers in the CSV. */
async function both(out: string, name: string, numeric: readonly string[]) {
  const csv = await readCsvColumns(join(out, `${name}.csv`), numeric);
  const { columns: parquet, types } = await readParquetColumns(join(out, `${name}.parquet`));
  deepEqual(Object.keys(csv), Object.keys(parquet), `${name}: same columns in CSV and Parquet`);
  return { csv, parquet, types };
}

/** Same values, bit for bit (Object.is), element by element. */
function sameBits(actual: readonly unknown[], expected: readonly unknown[], what: string): void {
  deepEqual(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    ok(Object.is(actual[i], expected[i]), `${what}[${i}]: ${actual[i]} !== ${expected[i]}`);
  }
}

Deno.test("analyze tables: coefficients equal contributions.json and selection.json to the bit", async () => {
  const out = await analysed();
  const contributions = await readJson(join(out, "contributions.json"));
  const selection = await readJson(join(out, "selection.json"));
  const numeric = Object.entries(COEFFICIENT_COLUMNS).filter(([, k]) => k !== "str").map(([n]) =>
    n
  );
  const { csv, parquet, types } = await both(out, "coefficients", numeric);
  deepEqual(Object.keys(csv), Object.keys(COEFFICIENT_COLUMNS));
  deepEqual([types.estimate, types.rank, types.metric], ["Float64", "Int32", "Utf8"]);
  const expected: Record<string, unknown[]> = {};
  for (const name of Object.keys(COEFFICIENT_COLUMNS)) expected[name] = [];
  const decisions = new Map(selection.decisions.map((d: Json) => [d.version_id, d]));
  for (const [metric, m] of Object.entries(contributions.metrics as Json)) {
    for (const col of contributions.columns) {
      const c = m.coefficients[col.version_id];
      const d = metric === selection.metric ? decisions.get(col.version_id) as Json : undefined;
      const row: Json = {
        metric,
        ...col,
        estimate: c.estimate,
        se_hc3: c.se_hc3,
        cov_type: contributions.conventions.cov_type,
        se: c.se_robust,
        z: c.t,
        p: c.p,
        se_cluster: c.se_cluster,
        z_cluster: c.t_cluster,
        p_cluster: c.p_cluster,
        se_bootstrap: c.se_bootstrap,
        interval: contributions.bootstrap.interval,
        ci_low: c.ci[0],
        ci_high: c.ci[1],
        amce: c.amce,
        amce_gap: c.amce_gap,
        status: d?.status ?? null,
        rank: d?.rank ?? null,
      };
      for (const name of Object.keys(COEFFICIENT_COLUMNS)) expected[name]!.push(row[name]);
    }
  }
  deepEqual(expected.metric!.length, 7 * 14);
  for (const name of Object.keys(COEFFICIENT_COLUMNS)) {
    sameBits(csv[name]!, expected[name]!, `coefficients.csv ${name}`);
    sameBits(parquet[name]!, expected[name]!, `coefficients.parquet ${name}`);
  }
  // A number read back from the JSON text, the CSV and the Parquet: one double.
  const q = contributions.metrics.reward.coefficients["query-formulation.v1"];
  const at = (expected.version_id as string[]).indexOf("query-formulation.v1");
  deepEqual([csv.estimate![at], parquet.estimate![at]], [q.estimate, q.estimate]);

  const sel = await both(out, "selection", ["alpha", "rank", "budget_k"]);
  sameBits(sel.csv.alpha!, selection.decisions.map((d: Json) => d.alpha), "selection.csv alpha");
  sameBits(sel.parquet.alpha!, selection.decisions.map((d: Json) => d.alpha), "selection alpha");
  sameBits(sel.parquet.rank!, selection.decisions.map((d: Json) => d.rank), "selection rank");
  sameBits(sel.csv.status!, selection.decisions.map((d: Json) => d.status), "selection status");
  sameBits(sel.parquet.retired!, selection.decisions.map((d: Json) => d.retired), "retired");
  deepEqual(sel.csv.retired, selection.decisions.map((d: Json) => String(d.retired).toUpperCase()));
});

Deno.test("analyze tables: tasks holds the fitted rows, values, masks and injected lists", async () => {
  const out = await analysed();
  const contributions = await readJson(join(out, "contributions.json"));
  // The rows as the fit saw them (the dataset's columns), not read back from the table.
  const v = await validateGates([GATE]);
  ok(v.ok && v.dataset);
  const metrics = Object.keys(contributions.metrics);
  const versions: string[] = contributions.columns.map((c: Json) => c.version_id);
  const numeric = [
    "sample_id",
    ...metrics.flatMap((m) => [`${m}_masked`, `${m}_bare`, `${m}_delta`]),
    ...versions.map((v) => `mask:${v}`),
  ];
  const { csv, parquet, types } = await both(out, "tasks", numeric);
  deepEqual(Object.keys(csv), [
    "round",
    "split",
    "task_id",
    "sample_id",
    ...metrics.flatMap((m) => [`${m}_masked`, `${m}_bare`, `${m}_delta`]),
    "injected",
    ...versions.map((v) => `mask:${v}`),
  ]);
  deepEqual(types.injected, "List<Utf8>");
  const rows: Json[] = [...taskRows(v.dataset)];
  deepEqual(rows.length, 400);
  for (const side of [csv, parquet]) {
    sameBits(side.round!, rows.map(() => "gate-a"), "round");
    sameBits(side.task_id!, rows.map((r) => r.task_id), "task_id");
    sameBits(side.sample_id!, rows.map((r) => r.sample_id), "sample_id");
    for (const m of metrics) {
      for (const part of ["masked", "bare", "delta"]) {
        sameBits(side[`${m}_${part}`]!, rows.map((r) => r.values[m][part]), `${m}_${part}`);
      }
    }
    for (const v of versions) sameBits(side[`mask:${v}`]!, rows.map((r) => r.columns[v]), v);
  }
  const injected = rows.map((r) => versions.filter((v) => r.columns[v] === 1));
  deepEqual(parquet.injected, injected);
  deepEqual(csv.injected!.map((t) => JSON.parse(t as string)), injected);
});

Deno.test("analyze --save-draws: draws reproduce the JSON's percentile intervals and are recorded in it", async () => {
  const out = await analysed();
  const contributions = await readJson(join(out, "contributions.json"));
  const { csv, parquet } = await both(out, "draws", ["draw", "estimate"]);
  const metrics = Object.keys(contributions.metrics);
  const versions: string[] = contributions.columns.map((c: Json) => c.version_id);
  const rows = DRAWS * metrics.length * versions.length;
  deepEqual(contributions.bootstrap.saved_draws.rows, rows);
  deepEqual(contributions.bootstrap.saved_draws.files, ["draws.csv", "draws.parquet"]);
  deepEqual([contributions.bootstrap.seed, contributions.bootstrap.draws], [3, DRAWS]);
  sameBits(csv.estimate!, parquet.estimate!, "draws estimate CSV vs Parquet");
  sameBits(csv.draw!, parquet.draw!, "draws draw");
  for (const [mi, m] of metrics.entries()) {
    for (const [j, v] of versions.entries()) {
      const sample: number[] = [];
      for (let d = 0; d < DRAWS; d++) {
        const r = (d * metrics.length + mi) * versions.length + j;
        deepEqual([parquet.draw![r], parquet.metric![r], parquet.version_id![r]], [d, m, v]);
        if (parquet.estimate![r] !== null) sample.push(parquet.estimate![r] as number);
      }
      const b = contributions.bootstrap.metrics[m].coefficients[v];
      deepEqual(sample.length, b.draws_used, `${m} ${v} draws_used`);
      sample.sort((x, y) => x - y);
      const at = (q: number) => sample[Math.floor(q * (sample.length - 1))];
      deepEqual([at(0.025), at(0.975)], b.ci_percentile, `${m} ${v} ci_percentile`);
      const mean = sample.reduce((s, x) => s + x, 0) / sample.length;
      const sd = Math.sqrt(sample.reduce((s, x) => s + (x - mean) ** 2, 0) / (sample.length - 1));
      ok(Math.abs(sd - b.se_bootstrap) <= 1e-12 * b.se_bootstrap, `${m} ${v} se_bootstrap`);
    }
  }
});

Deno.test("analyze --save-draws: refused above 10^8 estimates with the size, and without a bootstrap", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "out");
  const lines: string[] = [];
  const { error } = console;
  console.error = (...a: unknown[]) => lines.push(a.join(" "));
  let codes: number[];
  try {
    codes = [
      await quiet(() =>
        main(["analyze", GATE, "--out", out, "--bootstrap", "1100000", "--save-draws"])
      ),
    ];
    codes.push(
      await main(["analyze", GATE, "--out", out, "--bootstrap", "1100000", "--save-draws"]),
    );
    codes.push(await main(["analyze", GATE, "--out", out, "--bootstrap", "0", "--save-draws"]));
  } finally {
    console.error = error;
  }
  deepEqual(codes, [2, 2, 2]);
  // 1,100,000 draws x 7 metrics x 14 versions.
  deepEqual(lines, [
    "usage_error  --save-draws would write 107,800,000 draw estimates (1100000 draws x 7 metrics x 14 versions), above the limit of 100,000,000; lower --bootstrap",
    "usage_error  --save-draws needs a bootstrap (--bootstrap B with B > 0)",
  ]);
  ok(!(await Deno.stat(out).then(() => true, () => false)), "nothing written");
});

Deno.test("analyze without --save-draws: no draws table and no saved_draws in the JSON", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "out");
  deepEqual(
    await quiet(() => main(["analyze", GATE, "--out", out, "--bootstrap", "20", "--quiet"])),
    0,
  );
  const names = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) =>
    /\.(csv|parquet)$/.test(n)
  );
  deepEqual(names.sort(), [
    "coefficients.csv",
    "coefficients.parquet",
    "selection.csv",
    "selection.parquet",
    "tasks.csv",
    "tasks.parquet",
  ]);
  const contributions = await readJson(join(out, "contributions.json"));
  deepEqual("saved_draws" in contributions.bootstrap, false);
});

Deno.test("analyze --exploratory: coefficients without status or rank, no selection table", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "out");
  const args = ["analyze", "data/demo/ckpt-c/gate-online-c-xsvc", "--out", out, "--bootstrap", "0"];
  deepEqual(
    await quiet(() => main([...args, "--exploratory", "provenance_mismatch", "--quiet"])),
    0,
  );
  const names = [...Deno.readDirSync(out)].map((e) => e.name);
  deepEqual(names.filter((n) => n.startsWith("selection")), []);
  const { columns } = await readParquetColumns(join(out, "coefficients.parquet"));
  const contributions = await readJson(join(out, "contributions.json"));
  deepEqual(
    columns.status!.length,
    Object.keys(contributions.metrics).length * contributions.columns.length,
  );
  deepEqual([new Set(columns.status), new Set(columns.rank)], [new Set([null]), new Set([null])]);
  const first = contributions.metrics.reward.coefficients[contributions.columns[0].version_id];
  ok(Object.is(columns.estimate![0], first.estimate));
});

Deno.test("analyze --save-draws: a draw regenerated from the written tasks table, seed and draw order", async () => {
  // The user's path: only the output files and the documented recipe
  // (contributions.json bootstrap.draw_order and saved_draws.regenerate):
  // one stream createPrng(seed); draw d makes G calls of nextInt(G) after the
  // d * G calls of the draws before it; tasks numbered in first-seen order of
  // (split, task_id) in the rows; each row weighted by its task's count; the
  // no-intercept OLS of the metric's delta on the 0/1 columns (solved here with
  // ml-matrix, independently of the kernel's packed Cholesky).
  const out = await analysed();
  const contributions = await readJson(join(out, "contributions.json"));
  const { columns: tasks } = await readParquetColumns(join(out, "tasks.parquet"));
  const { columns: draws } = await readParquetColumns(join(out, "draws.parquet"));
  const versions: string[] = contributions.columns.map((c: Json) => c.version_id);
  const metrics = Object.keys(contributions.metrics);
  const n = tasks.task_id!.length, k = versions.length;
  const cluster = new Int32Array(n);
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = `${tasks.split![i]}\u0000${tasks.task_id![i]}`;
    if (!seen.has(key)) seen.set(key, seen.size);
    cluster[i] = seen.get(key)!;
  }
  const g = seen.size;
  deepEqual(g, contributions.n_tasks);
  const prng = createPrng(contributions.bootstrap.seed);
  for (let d = 0; d < DRAWS; d++) {
    const counts = new Float64Array(g);
    for (let c = 0; c < g; c++) counts[prng.nextInt(g)]! += 1;
    if (![0, 17, DRAWS - 1].includes(d)) continue;
    for (const [mi, metric] of metrics.entries()) {
      if (metric !== "reward" && metric !== "r_success") continue;
      const xtx = Matrix.zeros(k, k), xty = Matrix.zeros(k, 1);
      const y = tasks[`${metric}_delta`] as number[];
      for (let i = 0; i < n; i++) {
        const w = counts[cluster[i]!]!;
        if (w === 0) continue;
        const present = versions.map((v) => tasks[`mask:${v}`]![i] as number);
        for (let a = 0; a < k; a++) {
          if (!present[a]) continue;
          xty.set(a, 0, xty.get(a, 0) + w * y[i]!);
          for (let b = 0; b < k; b++) if (present[b]) xtx.set(a, b, xtx.get(a, b) + w);
        }
      }
      const beta = solve(xtx, xty);
      for (let j = 0; j < k; j++) {
        const written = draws.estimate![(d * metrics.length + mi) * k + j] as number | null;
        // Degenerate (a column never present in the draw): missing, never a number.
        ok((written === null) === (xtx.get(j, j) === 0), `draw ${d} ${versions[j]} missing`);
        if (written === null) continue;
        const regenerated = beta.get(j, 0);
        ok(
          Math.abs(written - regenerated) <= 1e-9 * Math.max(1, Math.abs(written)),
          `draw ${d} ${metric} ${versions[j]}: written ${written}, regenerated ${regenerated}`,
        );
      }
    }
  }
});

Deno.test("analyze: contributions.json names tasks.parquet (file, rows, sha256) instead of repeating its rows", async () => {
  const out = await analysed();
  const contributions = await readJson(join(out, "contributions.json"));
  ok(!("tasks" in contributions), "the per-task rows are not repeated in contributions.json");
  const keys = Object.keys(contributions);
  deepEqual(keys.slice(keys.indexOf("bootstrap"), keys.indexOf("bootstrap") + 2), [
    "bootstrap",
    "tasks_table",
  ]);
  const { file, format, rows, sha256 } = contributions.tasks_table;
  deepEqual([file, format, rows], ["tasks.parquet", "parquet", 400]);
  deepEqual(sha256, sha256Hex(await Deno.readFile(join(out, "tasks.parquet"))));
  // Read back through the readers' function, the rows are the fitted rows, to the bit.
  const v = await validateGates([GATE]);
  ok(v.ok && v.dataset);
  deepEqual(
    (await readContributions(out)).tasks,
    JSON.parse(JSON.stringify([...taskRows(v.dataset)])),
  );
  // A tasks.parquet that is not the one recorded is refused by the readers (gate report here).
  await using dir = await tempDir();
  const copy = dir.path;
  for (const name of ["contributions.json", "selection.json", "tasks.parquet"]) {
    await Deno.copyFile(join(out, name), join(copy, name));
  }
  const bytes = await Deno.readFile(join(copy, "tasks.parquet"));
  bytes[bytes.length - 9] = bytes[bytes.length - 9]! ^ 1;
  await Deno.writeFile(join(copy, "tasks.parquet"), bytes);
  const { value: code, log, err } = await captured(() =>
    main(["report", copy, "--out", join(copy, "report")])
  );
  deepEqual(code, 2);
  ok(/tasks\.parquet tasks_table {2}sha256 [0-9a-f]{64} is not the/.test(log + err), log + err);
});
