import { deepEqual, ok } from "node:assert/strict";
import { quiet } from "./fixtures.ts";
import { run } from "../lib/cli/report.ts";
import { readAnalysisDir, renderReport } from "../lib/html/mod.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { CONTRIBUTIONS, writeAnalysisFixture } from "./html_fixture.ts";

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
  // across-gate check, arms, comparisons, inputs.
  deepEqual(count(html, "<table"), 10);
  ok(html.includes("<caption>Selection stability of reward (K = 2)</caption>"));
  ok(html.includes("Held-out ranking checks of reward"));
  ok(html.includes("<caption>Coefficients of reward</caption>"));
  ok(html.includes('<td class="r">[0.030, 0.210]</td>')); // bootstrap CI of query-formulation
  ok(html.includes('<td class="l">rewrite loser</td>'));
  ok(html.includes('<td class="r">incomplete</td>'));
  // No script and no external reference; the only URL is the SVG namespace.
  ok(!/<script|<link|<img|<iframe|src=|href=/i.test(html));
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
    "parse_error",
    "schema_error",
  ]);
  const schema = validation.issues.find((i: { code: string }) => i.code === "schema_error");
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
