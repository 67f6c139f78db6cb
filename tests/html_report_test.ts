import { deepEqual, ok } from "node:assert/strict";
import { quiet } from "./fixtures.ts";
import { run } from "../lib/cli/report.ts";
import { readAnalysisDir, renderReport, reportSections } from "../lib/report/mod.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { addGateBAndPower, CONTRIBUTIONS, writeAnalysisFixture } from "./html_fixture.ts";

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

Deno.test("gate report writes one self-contained report.html with tables and inline figures", async () => {
  const dir = await writeAnalysisFixture();
  const out = await Deno.makeTempDir();
  deepEqual(await quiet(() => run([dir, "--out", out])), 0);
  const html = await Deno.readTextFile(`${out}/report.html`);
  ok(html.startsWith("<!DOCTYPE html>"));
  // Figures: delta by count, forest, stability, held-out gain and ranks, study arms and comparisons.
  const names = [
    "delta_by_count",
    "forest",
    "selection_stability",
    "heldout_gain",
    "heldout_rank_agreement",
    "study_arms",
    "study_comparisons",
  ];
  deepEqual(count(html, "<svg data-figure="), names.length);
  for (const name of names) {
    ok(html.includes(`id="figure-${name}"`), name);
    ok((await Deno.stat(`${out}/figures/${name}.svg`)).isFile, name);
  }
  // Tables: overview, means, coefficients, selection, stability, held-out summary,
  // across-gate check, the study's arms, comparisons and costs, and one provenance table per
  // section (3).
  deepEqual(count(html, "<table"), 13);
  ok(html.includes("<caption>Selection stability of reward (K = 2)</caption>"));
  ok(html.includes("Held-out ranking checks of reward"));
  ok(html.includes("<caption>Paired-delta coefficients, reward</caption>"));
  ok(html.includes(" [0.030, 0.210]</td>")); // bootstrap CI of query-formulation
  ok(html.includes('<td class="l">rewrite loser</td>'));
  ok(html.includes('<td class="r">incomplete</td>'));
  // No script and no external reference (links only to the page's own sections);
  // the only URL is the SVG namespace.
  ok(!/<script|<link|<img|<iframe|src=|href="[^#]/i.test(html));
  ok(html.includes('<a href="#section-1-gate">'));
  const urls = html.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  deepEqual([...new Set(urls)], ["http://www.w3.org/2000/svg"]);
  ok(html.includes("Content-Security-Policy"));
  // report.json records the inputs' hashes.
  const meta = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  deepEqual(
    meta.inputs["contributions.json"],
    sha256Hex(await Deno.readFile(`${dir}/contributions.json`)),
  );
  deepEqual(meta.figures.length, names.length);
  deepEqual(meta.generator.tool, "gatelab");
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test("the report is deterministic: same inputs, same bytes", async () => {
  const dir = await writeAnalysisFixture();
  const a = await readAnalysisDir(dir);
  const b = await readAnalysisDir(dir);
  ok(a.ok && b.ok);
  deepEqual(renderReport(a.value).html, renderReport(b.value).html);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a study-only directory gives a study-only report", async () => {
  const dir = await writeAnalysisFixture({
    contributions: false,
    selection: false,
    heldout: false,
  });
  const r = await readAnalysisDir(dir);
  ok(r.ok);
  const { html, figures } = renderReport(r.value);
  deepEqual(figures.map((f) => f.name), ["study_arms", "study_comparisons"]);
  ok(!html.includes("Coefficients"));
  // The tables gate study writes (studyTables), each figure behind its table.
  const ids = [...html.matchAll(/<(?:table|div class="figure") id="([^"]+)"/g)].map((m) => m[1]);
  deepEqual(ids.filter((id) => id !== undefined && /study/.test(id)), [
    "tab:study-arms",
    "figure-study_arms",
    "tab:study-comparisons",
    "figure-study_comparisons",
    "tab:study-costs",
  ]);
  // The fixture's costs: 484 attempts of arm O, 4 of them failed; 1444 in total, 717.75 GPU-hours.
  ok(/<td class="l">O<\/td>\s*<td class="r">484<\/td>\s*<td class="r">4<\/td>/.test(html));
  ok(
    /<td class="l">total<\/td>\s*<td class="r">1444<\/td>[^]*?<td class="r">717\.75<\/td>/.test(
      html,
    ),
  );
  await Deno.remove(dir, { recursive: true });
});

/** A right-aligned cell as toHtmlTable writes it. */
const cell = (text: string): string => `<td class="r">${text}</td>`;
const fixed = (x: number, digits: number): string => x.toFixed(digits);

Deno.test("comparison.json and power.json become tables, not raw JSON", async () => {
  const dir = await writeAnalysisFixture({ selection: false, heldout: false, study: false });
  await addGateBAndPower(dir);
  const comparison = JSON.parse(await Deno.readTextFile(`${dir}/comparison.json`));
  const power = JSON.parse(await Deno.readTextFile(`${dir}/power.json`));
  const out = await Deno.makeTempDir();
  deepEqual(await quiet(() => run([dir, "--out", out])), 0);
  const html = await Deno.readTextFile(`${out}/report.html`);
  // Analysis (overview, means, coefficients) + Gate B (2) + power (3) + provenance (3).
  deepEqual(count(html, "<table"), 11);
  ok(html.includes("<h2>Gate B: equipped vs bare</h2>"));
  ok(html.includes("<h2>Power plan</h2>"));
  for (
    const caption of [
      "Equipped vs bare, task-aligned",
      "Failures and cost, equipped vs bare",
      "Power plan",
      "Minimum detectable effect by number of tasks",
      "Minimum detectable effect by number of candidate columns",
    ]
  ) ok(html.includes(`<caption>${caption}</caption>`), caption);
  // Gate B: the reward row, bare / equipped / difference with its interval, 3 decimals.
  const reward = comparison.metrics.reward;
  ok(
    html.includes(
      `<td class="l">reward</td>${cell(fixed(reward.bare, 3))}${cell(fixed(reward.equipped, 3))}${
        cell(
          `${fixed(reward.difference, 3)} [${fixed(reward.ci[0], 3)}, ${fixed(reward.ci[1], 3)}]`,
        )
      }`,
    ),
  );
  const steps = comparison.behaviour.steps;
  ok(html.includes(`<td class="l">steps</td>${cell(fixed(steps.bare, 2))}`));
  ok(html.includes(`${comparison.n_pairs} paired episodes over ${comparison.n_tasks} tasks`));
  // Power: design, analytic MDE, and the first row of each grid.
  ok(html.includes(`<td class="l">tasks N</td>${cell("60")}`));
  ok(html.includes(`<td class="l">budget K</td>${cell("2")}`));
  ok(
    html.includes(
      `<td class="l">MDE at 80% power, alpha 0.05</td>${cell(fixed(power.analytic.mde_80, 3))}`,
    ),
  );
  const t0 = power.mde_by_tasks[0], c0 = power.mde_by_columns[0];
  ok(
    html.includes(
      `${cell(String(t0.tasks))}${cell(fixed(t0.se_beta, 3))}${cell(fixed(t0.mde_80, 3))}`,
    ),
  );
  ok(
    html.includes(
      `${cell(String(c0.columns))}${cell(fixed(c0.se_beta, 3))}${cell(fixed(c0.mde_80, 3))}`,
    ),
  );
  ok(html.includes(`${power.simulation.sims} simulated gates, seed ${power.simulation.seed}.`));
  // The raw-JSON fallback is gone.
  ok(!html.includes("<details") && !html.includes("<pre") && !html.includes("Other outputs"));
  ok(!html.includes("gatelab.comparison/v1") && !html.includes("gatelab.power/v1"));
  // Both files are recorded as inputs, with their hashes.
  const meta = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  deepEqual(Object.keys(meta.inputs), ["comparison.json", "contributions.json", "power.json"]);
  deepEqual(meta.sections.map((s: { kind: string }) => s.kind), ["gate", "power", "gate_b"]);
  deepEqual(meta.inputs["power.json"], sha256Hex(await Deno.readFile(`${dir}/power.json`)));
  // A Gate B / power-only directory is reportable on its own, deterministically.
  await Deno.remove(`${dir}/contributions.json`);
  const a = await readAnalysisDir(dir), b = await readAnalysisDir(dir);
  ok(a.ok && b.ok);
  deepEqual(reportSections(a.value).map((s) => s.heading), [
    "Power plan",
    "Gate B: equipped vs bare",
  ]);
  deepEqual(renderReport(a.value).html, renderReport(b.value).html);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test("a malformed power.json or comparison.json is a output_schema_mismatch with its field path", async () => {
  const dir = await writeAnalysisFixture({ selection: false, heldout: false, study: false });
  await addGateBAndPower(dir);
  const power = JSON.parse(await Deno.readTextFile(`${dir}/power.json`));
  power.analytic.mde_80 = "small";
  await Deno.writeTextFile(`${dir}/power.json`, JSON.stringify(power));
  const comparison = JSON.parse(await Deno.readTextFile(`${dir}/comparison.json`));
  delete comparison.metrics.reward.difference;
  await Deno.writeTextFile(`${dir}/comparison.json`, JSON.stringify(comparison));
  const r = await readAnalysisDir(dir);
  deepEqual(
    r.ok ? [] : r.issues.map((i) => [i.code, i.file?.split("/").pop(), i.path]).sort(),
    [
      ["output_schema_mismatch", "comparison.json", "metrics.reward.difference"],
      ["output_schema_mismatch", "power.json", "analytic.mde_80"],
    ],
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bad inputs: exit 2, validation.json with file and field path, no report", async () => {
  const dir = await writeAnalysisFixture({ selection: false, study: false, heldout: false });
  const broken = structuredClone(CONTRIBUTIONS) as Record<string, unknown>;
  (broken.metrics as Record<string, { masked_mean: unknown }>).reward!.masked_mean = "high";
  await Deno.writeTextFile(`${dir}/contributions.json`, JSON.stringify(broken));
  await Deno.writeTextFile(`${dir}/study.json`, "{not json");
  const out = await Deno.makeTempDir();
  deepEqual(await quiet(() => run([dir, "--out", out])), 2);
  const validation = JSON.parse(await Deno.readTextFile(`${out}/validation.json`));
  deepEqual(validation.ok, false);
  deepEqual(validation.issues.map((i: { code: string }) => i.code).sort(), [
    "output_schema_mismatch",
    "parse_error",
  ]);
  const schema = validation.issues.find((i: { code: string }) =>
    i.code === "output_schema_mismatch"
  );
  deepEqual(schema.path, "metrics.reward.masked_mean");
  ok(schema.file.endsWith("contributions.json"));
  await Deno.stat(`${out}/report.html`).then(() => ok(false, "report.html written"), () => {});
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test("an empty or missing directory is an io_error", async () => {
  const empty = await Deno.makeTempDir();
  const r = await readAnalysisDir(empty);
  deepEqual(r.ok ? [] : r.issues.map((i) => i.code), ["io_error"]);
  const missing = await readAnalysisDir(`${empty}/nope`);
  deepEqual(missing.ok ? [] : missing.issues.map((i) => i.code), ["io_error"]);
  await Deno.remove(empty);
});

Deno.test("usage errors: no directory, no --out", async () => {
  for (const args of [["--out", "x"], ["dir"]]) {
    try {
      await run(args);
      ok(false, "expected UsageError");
    } catch (error) {
      deepEqual((error as Error).name, "UsageError");
    }
  }
});

Deno.test("gate report over several directories: sections in paper order, unique figures, provenance", async () => {
  const gate = await writeAnalysisFixture({ heldout: false, study: false });
  const study = await writeAnalysisFixture({
    contributions: false,
    selection: false,
    heldout: false,
  });
  const heldout = await writeAnalysisFixture({
    contributions: false,
    selection: false,
    study: false,
  });
  const out = await Deno.makeTempDir();
  // Given in reverse paper order; the report puts them back.
  deepEqual(await quiet(() => run([study, heldout, gate, gate, "--out", out])), 0);
  const html = await Deno.readTextFile(`${out}/report.html`);
  const kinds = [...html.matchAll(/<section id="section-(\d+)-(\w+)"/g)].map((m) =>
    `${m[1]}-${m[2]}`
  );
  deepEqual(kinds, ["1-gate", "2-gate", "3-heldout", "4-study"]);
  ok(html.includes('<nav class="toc"'));
  // The same directory twice: its figures get distinct names.
  const figures = [...html.matchAll(/<svg data-figure="([^"]+)"/g)].map((m) => m[1]);
  deepEqual(new Set(figures).size, figures.length);
  ok(figures.includes("forest") && figures.includes("forest-2"));
  // Provenance: each section names its directory and each input's sha256.
  deepEqual(count(html, '<div class="provenance">'), 4);
  ok(html.includes(`sha256 ${sha256Hex(await Deno.readFile(`${study}/study.json`))}`));
  const meta = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  deepEqual(meta.sources.length, 4);
  deepEqual(meta.sections.map((s: { kind: string }) => s.kind), [
    "gate",
    "gate",
    "heldout",
    "study",
  ]);
  for (const d of [gate, study, heldout, out]) await Deno.remove(d, { recursive: true });
});

Deno.test("gate report over two runs: each figure's caption names its run, so forest and forest-2 differ in a paper", async () => {
  // Two analysis outputs in directories named as a user names them (out/gate-a, out/gate-online-c).
  const root = await Deno.makeTempDir();
  for (const name of ["gate-a", "gate-online-c"]) {
    await Deno.rename(
      await writeAnalysisFixture({ heldout: false, study: false }),
      `${root}/${name}`,
    );
  }
  const out = `${root}/report`;
  deepEqual(await quiet(() => run([`${root}/gate-a`, `${root}/gate-online-c`, "--out", out])), 0);
  const caption = async (name: string) =>
    /\\caption\{([^.}]*)/.exec(await Deno.readTextFile(`${out}/figures/${name}.tex`))?.[1];
  deepEqual(await Promise.all(["forest", "forest-2", "delta_by_count-2"].map(caption)), [
    "Report: coefficients per metric, Gate A",
    "Report: coefficients per metric, Gate Online C",
    "Report: paired delta of reward by number of chunks present, Gate Online C",
  ]);
  const meta = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  deepEqual(meta.figures.map((f: { title: string }) => f.title).slice(0, 2), [
    "Paired delta of reward by number of chunks present, Gate A",
    "Coefficients per metric, Gate A",
  ]);
  // One run: titles as the figures have them (no run named).
  const single = `${root}/single`;
  deepEqual(await quiet(() => run([`${root}/gate-a`, "--out", single])), 0);
  deepEqual(
    /\\caption\{([^.}]*)/.exec(await Deno.readTextFile(`${single}/figures/forest.tex`))?.[1],
    "Single: coefficients per metric",
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test({
  name: "gate report --pdf without permission to run chromium: exit 2, one line, nothing written",
  permissions: { read: true, write: true, env: true, sys: ["cpus"], run: false },
}, async () => {
  const dir = await writeAnalysisFixture({
    contributions: false,
    selection: false,
    heldout: false,
  });
  const out = `${await Deno.makeTempDir()}/report`;
  const lines: string[] = [];
  const { error } = console;
  console.error = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    deepEqual(await run([dir, "--out", out, "--pdf"]), 2);
  } finally {
    console.error = error;
  }
  deepEqual(lines.length, 1);
  ok(/^report: cannot print report\.pdf: .*nothing written$/.test(lines[0]!), lines[0]);
  ok(!(await Deno.stat(out).then(() => true, () => false)));
  await Deno.remove(dir, { recursive: true });
});
