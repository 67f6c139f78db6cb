import { deepEqual, ok, rejects, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  deltaByCountPlot,
  figureFiles,
  forestPlot,
  rankAgreementPlot,
  stabilityPlot,
} from "../lib/figures/mod.ts";
import { studyPlot, studyRows } from "../lib/study/mod.ts";
import { deltaPoints, forestRows } from "../lib/analyze/figures.ts";
import { ignoreWithout } from "./ci_tools.ts";

const rows = [
  { label: "v_add_1", estimate: 0.12, lo: 0.02, hi: 0.22, group: "reward" },
  { label: "v_old_2", estimate: -0.04, lo: -0.1, hi: 0.02, group: "reward" },
  { label: "v_add_1", estimate: 0.1, lo: 0.0, hi: 0.2, group: "r_strict" },
  { label: "v_old_2", estimate: null, lo: -0.2, hi: 0.1, group: "r_strict" },
];

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

Deno.test("figures are standalone SVG with xmlns, a title and no external reference", () => {
  for (
    const fig of [
      forestPlot(rows),
      deltaByCountPlot([{ count: 0, delta: 0.1 }, { count: 2, delta: -0.3 }]),
      stabilityPlot([{ label: "a", frequency: 0.5 }]),
      rankAgreementPlot([{ label: "a", validation: 1, heldOut: 1 }]),
      studyPlot([{ label: "M", estimate: 0.5, ci: [0.4, 0.6], bounds: [0.5, 0.5] }]),
    ]
  ) {
    ok(fig.svg.startsWith("<svg"), fig.name);
    ok(fig.svg.includes('xmlns="http://www.w3.org/2000/svg"'), fig.name);
    ok(fig.svg.includes(`<title>${fig.title}</title>`), fig.name);
    const withoutNamespace = fig.svg.replace('xmlns="http://www.w3.org/2000/svg"', "");
    ok(!/href=|url\(|https?:/.test(withoutNamespace), `${fig.name} references something external`);
    ok(!fig.svg.includes("clip-path"), fig.name);
  }
});

Deno.test("same input renders the same bytes, also after other figures", () => {
  const a = forestPlot(rows).svg;
  studyPlot([{ label: "M", estimate: 0.5, ci: [0.4, 0.6], bounds: [0.5, 0.5] }]);
  deltaByCountPlot([{ count: 1, delta: 0.1 }]);
  deepEqual(forestPlot(rows).svg, a);
});

Deno.test("forest plot: one dot per estimate, one interval per row, one panel per metric", () => {
  const svg = forestPlot(rows, { title: "Coefficients" }).svg;
  deepEqual(count(svg, "<circle"), 3); // the null estimate draws no dot
  ok(svg.includes(">reward</text>") && svg.includes(">r_strict</text>"));
  ok(svg.includes(">v_add_1</text>") && svg.includes(">v_old_2</text>"));
  ok(svg.includes("<title>Coefficients</title>"));
  throws(() => forestPlot([]), /no rows/);
});

Deno.test("forest plot with one unnamed group has no panel header", () => {
  const svg = forestPlot([{ label: "x", estimate: 1, lo: 0, hi: 2 }]).svg;
  ok(!svg.includes('aria-label="fx-axis'));
  deepEqual(count(svg, "<circle"), 1);
});

Deno.test("delta distribution: one box per count and the group sizes", () => {
  const points = [0, 0, 1, 1, 1, 3].map((count, i) => ({ count, delta: i / 10 }));
  const svg = deltaByCountPlot(points).svg;
  ok(svg.includes(">n=2</text>") && svg.includes(">n=3</text>") && svg.includes(">n=1</text>"));
  ok(svg.includes(">versions present in the mask</text>"));
  throws(() => deltaByCountPlot([{ count: 1, delta: NaN }]), /no finite deltas/);
});

Deno.test("stability: a bar and a printed frequency per version; frequency checked", () => {
  const svg = stabilityPlot([
    { label: "a", frequency: 0.875, selected: true },
    { label: "b", frequency: 0.1 },
  ]).svg;
  deepEqual(count(svg, "<rect"), 1 + 2); // white background + two bars
  ok(svg.includes(">0.875</text>") && svg.includes(">0.100</text>"));
  ok(svg.includes('fill="#4269d0"') && svg.includes('fill="#c6d4f0"'));
  throws(() => stabilityPlot([{ label: "a", frequency: 1.5 }]), /not in \[0, 1\]/);
});

Deno.test("study: unresolved rows are labelled and have no dot", () => {
  const svg = studyPlot([
    { label: "M", estimate: 0.4, ci: [0.3, 0.5], bounds: [0.4, 0.4] },
    { label: "B", estimate: null, ci: null, bounds: [0.2, 0.35] },
  ]).svg;
  deepEqual(count(svg, "<circle"), 1);
  deepEqual(count(svg, ">unresolved</text>"), 1);
});

Deno.test("rank agreement: labelled points and the subtitle", () => {
  const svg = rankAgreementPlot(
    [{ label: "v1", validation: 1, heldOut: 2 }, { label: "v2", validation: 2, heldOut: 1 }],
    { subtitle: "Spearman rho = -1.00" },
  ).svg;
  deepEqual(count(svg, "<circle"), 2);
  ok(svg.includes(">Spearman rho = -1.00</text>"));
  throws(() => rankAgreementPlot([{ label: "x", validation: Infinity, heldOut: 1 }]), /non-finite/);
  const unlabelled =
    rankAgreementPlot([{ label: "v1", validation: 1, heldOut: 2 }], { showLabels: false }).svg;
  ok(!unlabelled.includes(">v1</text>") && unlabelled.includes("<circle"));
});

Deno.test("text with markup characters is escaped", () => {
  const svg = forestPlot([{ label: "a<b & c", estimate: 0, lo: 0, hi: 0 }], { title: "T <&>" }).svg;
  ok(svg.includes("a&lt;b &amp; c") && svg.includes("<title>T &lt;&amp;&gt;</title>"));
  ok(!svg.includes("a<b"));
});

const contributions = {
  columns: [
    { version_id: "a", slot_id: "s1", chunk_id: "c1", role: "add" },
    { version_id: "b", slot_id: "s2", chunk_id: "c2", role: "add" },
  ],
  metrics: {
    reward: {
      coefficients: {
        a: { estimate: 0.2, se_hc3: 0.1, se_bootstrap: 0.12, ci: [0.01, 0.4] },
        b: { estimate: 0.1, se_hc3: 0.05, se_cluster: 0.5 },
      },
    },
  },
  tasks: [
    {
      split: "val",
      task_id: "t1",
      sample_id: 0,
      columns: { a: 1, b: 0 },
      values: { reward: { masked: 1, bare: 0, delta: 1 } },
    },
    {
      split: "val",
      task_id: "t2",
      sample_id: 0,
      columns: { a: 1, b: 1 },
      values: { reward: { masked: 0, bare: 0.5, delta: -0.5 } },
    },
  ],
} as const;

Deno.test("forestRows prefers the bootstrap interval, then se_cluster, then se_hc3", () => {
  const { rows, sources } = forestRows(contributions);
  deepEqual(sources, ["bootstrap_percentile", "normal_se_cluster"]);
  deepEqual([rows[0]!.lo, rows[0]!.hi], [0.01, 0.4]);
  // 0.1 -/+ 1.959963984540054 * 0.5 (scipy.stats.norm.ppf(0.975) = 1.959963984540054)
  deepEqual(rows[1]!.lo!.toFixed(9), "-0.879981992");
  deepEqual(rows[1]!.hi!.toFixed(9), "1.079981992");
});

Deno.test("deltaPoints counts present versions per episode", () => {
  deepEqual(deltaPoints(contributions, "reward"), [{ count: 1, delta: 1 }, {
    count: 2,
    delta: -0.5,
  }]);
  deepEqual(deltaPoints(contributions, "r_strict"), []);
});

Deno.test("studyRows keeps arms' bounds and comparisons' intervals", () => {
  const study = {
    arms: {
      M: {
        planned: 4,
        observed: 4,
        successes: 2,
        estimate: 0.5,
        bounds: [0.5, 0.5],
        complete: true,
      },
      B: {
        planned: 4,
        observed: 3,
        successes: 1,
        estimate: null,
        bounds: [0.25, 0.5],
        complete: false,
      },
    },
    comparisons: [{ a: "M", b: "B", complete: false, estimate: null, bounds: [0, 0.25], ci: null }],
  } as const;

  const { arms, comparisons } = studyRows(study);
  deepEqual(arms.map((a) => [a.label, a.estimate, a.bounds]), [["M", 0.5, [0.5, 0.5]], ["B", null, [
    0.25,
    0.5,
  ]]]);
  deepEqual(comparisons[0]!.label, "M − B");
});

Deno.test("figureFiles: an SVG per figure; duplicate names refused", async () => {
  const fig = stabilityPlot([{ label: "a", frequency: 0.5 }]);
  const files = await figureFiles([fig], { png: false, pdf: false });
  deepEqual(Object.keys(files), ["selection_stability.svg"]);
  deepEqual(files["selection_stability.svg"], fig.svg + "\n");
  await rejects(() => figureFiles([fig, fig]), /two figures are named/);
});

Deno.test({
  name: "figureFiles: a PNG beside each SVG, a real PNG at twice the SVG's size (rsvg-convert)",
  ignore: ignoreWithout("rsvg-convert", "figures_plots_test PNG"),
  async fn() {
    const fig = stabilityPlot([{ label: "a", frequency: 0.5 }, { label: "b", frequency: 1 }]);
    const files = await figureFiles([fig], { pdf: false });
    deepEqual(Object.keys(files).sort(), ["selection_stability.png", "selection_stability.svg"]);
    const png = files["selection_stability.png"];
    ok(png instanceof Uint8Array, "no PNG bytes");
    // PNG signature, then the IHDR chunk: width and height, big-endian.
    deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    deepEqual(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
    const view = new DataView(png.buffer, png.byteOffset);
    const svgTag = /<svg[^>]*>/.exec(fig.svg)![0];
    const size = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)"`).exec(svgTag)![1]);
    // Twice the SVG's size (--zoom=2).
    deepEqual([view.getUint32(16), view.getUint32(20)], [
      Math.ceil(2 * size("width")),
      Math.ceil(2 * size("height")),
    ]);
    // Not a blank image: the IDAT data of a drawn plot is far larger than a
    // white rectangle's.
    ok(png.length > 2000, `PNG of ${png.length} bytes`);
  },
});

Deno.test({
  name:
    "figureFiles: a vector PDF of the paper form (no title, text kept as text), same bytes twice",
  ignore: ignoreWithout("rsvg-convert", "figures_plots_test PDF"),
  async fn() {
    const fig = forestPlot(rows, { title: "Coefficients of the probe" });
    const scope = { label: "gate-a", name: "Gate A" };
    const files = await figureFiles([fig], { png: false, scope });
    deepEqual(Object.keys(files).sort(), ["forest.pdf", "forest.svg", "forest.tex"]);
    const pdf = files["forest.pdf"] as Uint8Array;
    deepEqual(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
    // cairo's dates are fixed (SOURCE_DATE_EPOCH): the same figure gives the same bytes.
    deepEqual((await figureFiles([fig], { png: false }))["forest.pdf"], pdf);
    // The title is in the screen SVG and the caption, never in the paper form.
    ok(fig.svg.includes("Coefficients of the probe"));
    ok(!fig.paper!.svg.includes("Coefficients of the probe"));
    ok(!fig.paper!.svg.includes('class="subtitle"'));
    const tex = files["forest.tex"] as string;
    ok(tex.includes("\\caption{Gate A: coefficients of the probe. Dot: estimate"), tex);
    ok(tex.includes("\\label{fig:gate-a:forest}"));
    // Text at 7 pt or more at the width the figure is meant for: its smallest font (px) times
    // the width it prints at over the SVG's width.
    const width = Number(/<svg[^>]*\swidth="([\d.]+)"/.exec(fig.paper!.svg)![1]);
    const smallest = Math.min(
      ...[...fig.paper!.svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1])),
    );
    const at = fig.paper!.span === "column" ? 229.5 : 345;
    ok(smallest * at / width >= 7, `${smallest} px of ${width} px at ${at} pt`);
  },
});

Deno.test("property: forest plot draws one dot per finite estimate", () => {
  fc.assert(
    fc.property(
      fc.array(fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: null }), {
        minLength: 1,
        maxLength: 8,
      }),
      (estimates) => {
        const input = estimates.map((estimate, i) => ({ label: `v${i}`, estimate, lo: -1, hi: 1 }));
        const svg = forestPlot(input).svg;
        return count(svg, "<circle") === estimates.filter((e) => e !== null).length;
      },
    ),
    { numRuns: 25 },
  );
});
