/**
 * The demo's whole-study report in a real browser (Debian's headless
 * `chromium`, flags as lib/report/print_pdf.ts): every section is there (the
 * eleven kinds, one ladder card per ladder gate, both audits), the page
 * logs no console message, the page body never scrolls sideways at 800 px
 * or 1400 px (wide tables scroll inside their own box), no interval wraps
 * inside its cell, no text of any figure falls outside its SVG's box, and
 * no figure label overlaps another label or a dot. Screenshots at both
 * widths go to reports/screenshots/ (the whole-study report's first
 * 9000 px, and the whole of a report of the sequential, ladder and audit
 * outputs alone). The measurements run in an instrumented copy of the page
 * (the original has no script and a CSP that forbids one); the console
 * check runs on the original. Ignored, with a message, when chromium or
 * `--allow-run=chromium` is missing (CI installs it and counts an ignored
 * test as a failure).
 */
import { deepEqual, ok } from "node:assert/strict";
import { CHROMIUM_FLAGS } from "../lib/report/print_pdf.ts";
import { demoOutputs } from "./demo_outputs.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { run } from "../lib/cli/report.ts";
import { main as gateMain } from "../lib/cli/main.ts";
import { checkpointCsv } from "./build_study.ts";

// Skipped outside CI without --allow-run=chromium, with a message; never in CI (tests/ci_tools.ts).
const available = !ignoreWithout("chromium", "report_browser_test");

/** Runs headless chromium on a page at a window width; returns stdout and the console lines. */
async function chromium(
  page: string,
  width: number,
  extra: readonly string[],
  height = 1000,
): Promise<{ stdout: string; console: string[] }> {
  const profile = await Deno.makeTempDir({ prefix: "gatelab-chromium-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command("chromium", {
      args: [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        "--hide-scrollbars",
        `--window-size=${width},${height}`,
        "--enable-logging=stderr",
        "--v=0",
        ...extra,
        `file://${page}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const log = new TextDecoder().decode(stderr);
    if (code !== 0) throw new Error(`Cannot load page in chromium: exit code ${code}\n${log}`);
    return {
      stdout: new TextDecoder().decode(stdout),
      console: log.split("\n").filter((line) => /:CONSOLE[:(]/.test(line)),
    };
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

// Measures the laid-out page and writes the result into the DOM as JSON.
const PROBE = `<script>
addEventListener("load", () => {
  const out = { sections: [], overflowX: 0, wrappedIntervals: [], textOutside: [], figures: 0 };
  out.sections = [...document.querySelectorAll("section[data-kind]")].map((s) => s.dataset.kind);
  out.overflowX = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  // An interval "[lo, hi]" must sit on one line (a cell may break before it on purpose).
  for (const td of document.querySelectorAll("tbody td")) {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\[[^\\]]*\\]/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) out.wrappedIntervals.push(td.textContent);
      }
    }
  }
  for (const svg of document.querySelectorAll("svg[data-figure]")) {
    out.figures++;
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const eps = 0.5;
      if (r.left < box.left - eps || r.right > box.right + eps || r.top < box.top - eps || r.bottom > box.bottom + eps) {
        out.textOutside.push(svg.dataset.figure + ": " + text.textContent);
      }
    }
  }
  // Labels (Plot's text marks) must not overlap one another, nor any dot.
  const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  out.collisions = [];
  for (const svg of document.querySelectorAll("svg[data-figure]")) {
    const labels = [...svg.querySelectorAll('g[aria-label="text"] text')].map((t) => [t.textContent, t.getBoundingClientRect()]);
    const dots = [...svg.querySelectorAll("circle")].map((c) => c.getBoundingClientRect());
    labels.forEach(([text, r], i) => {
      for (const [other, q] of labels.slice(i + 1)) if (overlap(r, q)) out.collisions.push(svg.dataset.figure + ": " + text + " / " + other);
      if (dots.some((d) => overlap(r, d))) out.collisions.push(svg.dataset.figure + ": " + text + " / a dot");
    });
  }
  // The smallest figure text as drawn (font size times the SVG's scale on the page), and every
  // negative number in a table printed with a true minus.
  out.minFigureText = Infinity;
  for (const svg of document.querySelectorAll("svg[data-figure]")) {
    const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal?.width || svg.getBoundingClientRect().width);
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      out.minFigureText = Math.min(out.minFigureText, parseFloat(getComputedStyle(text).fontSize) * scale);
    }
  }
  out.hyphenMinus = [...document.querySelectorAll("td")].map((td) => td.textContent)
    .filter((t) => /(^|[\\s(\\[,;=])-\\.?\\d/.test(t));
  // Tables that scroll sideways inside their box (named by caption).
  out.scrollingTables = [...document.querySelectorAll(".table-wrap")]
    .filter((w) => w.scrollWidth > w.clientWidth + 1)
    .map((w) => (w.querySelector("caption")?.textContent ?? "?").slice(0, 80) + " (" + (w.scrollWidth - w.clientWidth) + " px)");
  out.hashHeights = [...document.querySelectorAll(".hash")].map((h) => h.getBoundingClientRect().height)
    .filter((h) => h > 40);
  const pre = document.createElement("pre");
  pre.id = "gatelab-probe";
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
});
</script>`;

interface Probe {
  sections: string[];
  overflowX: number;
  wrappedIntervals: string[];
  textOutside: string[];
  collisions: string[];
  figures: number;
  minFigureText: number;
  hyphenMinus: string[];
  hashHeights: number[];
  scrollingTables: string[];
}

async function probe(report: string, width: number): Promise<Probe> {
  const html = await Deno.readTextFile(report);
  const instrumented = html
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "")
    .replace("</body>", `${PROBE}</body>`);
  // The page is self-contained, so its copy may live elsewhere (the demo's outputs are read-only).
  const dir = await Deno.makeTempDir({ prefix: "gatelab-probe-" });
  try {
    const copy = `${dir}/probe-${width}.html`;
    await Deno.writeTextFile(copy, instrumented);
    const { stdout } = await chromium(copy, width, ["--dump-dom"]);
    const match = stdout.match(/<pre id="gatelab-probe">([^<]*)<\/pre>/);
    ok(match, "the probe ran");
    return JSON.parse(match[1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    "browser: the demo's report has every section (eleven kinds, three ladder cards, two audits) and no console message",
  ignore: !available,
  async fn() {
    const report = `${await demoOutputs()}/report/report.html`;
    const { console: lines } = await chromium(report, 1400, ["--dump-dom"]);
    deepEqual(lines, []);
    const { sections, figures } = await probe(report, 1400);
    deepEqual(sections, [
      "gate",
      "pooled",
      "sequential",
      "history",
      "heldout",
      "power",
      "gate_b",
      "ladder",
      "ladder",
      "ladder",
      "study",
      "reward",
      "audit",
      "audit",
    ]);
    // 12 before the new sections, 2 per metric of the sequential re-analysis (7 metrics), 1 per ladder.
    deepEqual(figures, 12 + 2 * 7 + 3);
  },
});

for (const width of [390, 800, 1200, 1400]) {
  Deno.test({
    name:
      `browser: at ${width} px the page never scrolls sideways, intervals stay on one line, figure text stays inside its SVG`,
    ignore: !available,
    async fn() {
      const report = `${await demoOutputs()}/report/report.html`;
      const p = await probe(report, width);
      deepEqual(p.overflowX, 0, "the page body scrolls sideways");
      deepEqual(p.wrappedIntervals, []);
      deepEqual(p.textOutside, []);
      deepEqual(p.collisions, []);
      // A phone too: figure text at 9 px or more, hashes on one line, true minus signs.
      ok(p.minFigureText >= 9, `figure text at ${p.minFigureText} px`);
      deepEqual(p.hyphenMinus, []);
      deepEqual(p.hashHeights, []);
      // From a 1200 px window up, no table scrolls sideways either: long text wraps in its cell.
      if (width >= 1200) deepEqual(p.scrollingTables, [], "tables that scroll sideways");
      await Deno.mkdir("reports/screenshots", { recursive: true });
      const shot = `${Deno.cwd()}/reports/screenshots/report-${width}.png`;
      await chromium(report, width, [`--screenshot=${shot}`], 9000);
      ok((await Deno.stat(shot)).size > 10_000, "screenshot written");
    },
  });
}

/**
 * The demo's sequential, ladder and audit outputs alone, so their sections are on screen, as a
 * report in a temporary directory of its own (removed at exit).
 */
async function laterSectionsReport(width: number): Promise<string> {
  const demo = await demoOutputs();
  const out = await Deno.makeTempDir({ prefix: `gatelab-report-later-sections-${width}-` });
  globalThis.addEventListener("unload", () => Deno.removeSync(out, { recursive: true }));
  const dirs = [
    "sequential-a",
    "ladder-counting",
    "ladder-temporal-order",
    "ledger-audit",
    "firewall",
  ];
  const { log } = console;
  console.log = () => {};
  try {
    deepEqual(await run([...dirs.map((d) => `${demo}/${d}`), "--out", out]), 0);
  } finally {
    console.log = log;
  }
  return `${out}/report.html`;
}

for (const width of [800, 1400]) {
  Deno.test({
    name:
      `browser: at ${width} px the sequential, ladder and audit sections pass the same checks (screenshot)`,
    ignore: !available,
    async fn() {
      const report = await laterSectionsReport(width);
      const p = await probe(report, width);
      deepEqual(p.sections, ["sequential", "ladder", "ladder", "audit", "audit"]);
      deepEqual(p.figures, 2 * 7 + 2);
      deepEqual(p.overflowX, 0, "the page body scrolls sideways");
      deepEqual(p.wrappedIntervals, []);
      deepEqual(p.textOutside, []);
      deepEqual(p.collisions, []);
      await Deno.mkdir("reports/screenshots", { recursive: true });
      const shot = `${Deno.cwd()}/reports/screenshots/report-later-sections-${width}.png`;
      await chromium(report, width, [`--screenshot=${shot}`], 24000);
      ok((await Deno.stat(shot)).size > 10_000, "screenshot written");
    },
  });
}

Deno.test({
  name:
    "browser: the probe sees a clipped figure text, a sideways-scrolling page and a wrapped interval (negative control)",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    const report = `${dir}/report.html`;
    await Deno.writeTextFile(
      report,
      `<!DOCTYPE html><html><head><style>td { width: 3em; }</style></head><body>` +
        `<section data-kind="gate"><svg data-figure="f" width="100" height="40">` +
        `<text x="60" y="20">a title that runs off the figure</text>` +
        `<g aria-label="text"><text x="5" y="30">n=3</text><text x="8" y="30">n=4</text></g></svg>` +
        `<div style="width: 2000px">wide</div>` +
        `<table><tbody><tr><td>0.108 [0.043, 0.173]</td></tr></tbody></table></section></body></html>`,
    );
    const p = await probe(report, 800);
    deepEqual(p.textOutside, ["f: a title that runs off the figure"]);
    deepEqual(p.collisions, ["f: n=3 / n=4"]);
    ok(p.overflowX > 1000);
    deepEqual(p.wrappedIntervals, ["0.108 [0.043, 0.173]"]);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "browser: gate report --pdf prints report.pdf with headless chromium",
  ignore: !available,
  async fn() {
    const demo = await demoOutputs();
    const out = await Deno.makeTempDir();
    const { log } = console;
    console.log = () => {};
    try {
      deepEqual(await run([`${demo}/study`, `${demo}/gate-b`, "--out", out, "--pdf"]), 0);
    } finally {
      console.log = log;
    }
    const pdf = await Deno.readFile(`${out}/report.pdf`);
    deepEqual(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
    ok(pdf.length > 10_000);
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test({
  name:
    "browser: at 1200 px no table of a report over an imported gate scrolls sideways (Checks not made included)",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-report-imported-" });
    try {
      await Deno.writeTextFile(`${dir}/a.csv`, checkpointCsv("ck-1", 3));
      const { log } = console;
      console.log = () => {};
      try {
        deepEqual(await gateMain(["import", "table", `${dir}/a.csv`, "--out", `${dir}/runs`]), 0);
        const gate = `${dir}/runs/ck-1/gate-r1`;
        deepEqual(await gateMain(["analyze", gate, "--out", `${dir}/an`, "--bootstrap", "50"]), 0);
        deepEqual(await gateMain(["report", `${dir}/an`, "--out", `${dir}/rep`]), 0);
      } finally {
        console.log = log;
      }
      ok((await Deno.readTextFile(`${dir}/rep/report.html`)).includes("Checks not made"));
      const p = await probe(`${dir}/rep/report.html`, 1200);
      deepEqual(p.overflowX, 0);
      deepEqual(p.scrollingTables, [], "tables that scroll sideways");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
