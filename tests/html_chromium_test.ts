/**
 * End-to-end: `gate report` output opened in headless Chromium (Debian's
 * `chromium` package), launched headless with a throw-away profile. The page must load
 * with no console message at all (the report has no script, so any console
 * line is a CSP violation, a failed load or an error) and its DOM must hold
 * the figures and tables. Skipped, with a message, when
 * `--allow-run=chromium` is not given, except in CI (`CI=true`), where it
 * always runs and fails without Chromium (.ci/run installs it:
 * `apt-get install -y chromium`).
 */
import { CHROMIUM_FLAGS } from "../lib/report/print_pdf.ts";
import { deepEqual, ok } from "node:assert/strict";
import { run } from "../lib/cli/report.ts";
import { addGateBAndPower, writeAnalysisFixture } from "./html_fixture.ts";
import { ignoreWithout } from "./ci_tools.ts";

const skip = ignoreWithout("chromium", "html_chromium_test");

/** Loads a file in headless Chromium; returns the DOM after load and the console lines. */
async function openInChromium(path: string): Promise<{ dom: string; console: string[] }> {
  const profile = await Deno.makeTempDir({ prefix: "gatelab-chromium-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command("chromium", {
      args: [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        `file://${path}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const log = new TextDecoder().decode(stderr);
    if (code !== 0) throw new Error(`Cannot load page in chromium: exit code ${code}\n${log}`);
    const consoleLines = log.split("\n").filter((line) => /:CONSOLE[:(]/.test(line));
    return { dom: new TextDecoder().decode(stdout), console: consoleLines };
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name: "chromium: console capture sees errors and blocked loads (negative control)",
  ignore: skip,
  async fn() {
    const dir = await Deno.makeTempDir();
    const page = `${dir}/bad.html`;
    await Deno.writeTextFile(
      page,
      `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"></head>` +
        `<body><img src="http://127.0.0.1:9/x.png"><script>console.error("boom")</script></body></html>`,
    );
    const { console: lines } = await openInChromium(page);
    ok(lines.some((l) => l.includes('"boom"')), lines.join("\n"));
    ok(lines.some((l) => l.includes("Content Security Policy")), lines.join("\n"));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "chromium: report.html (with Gate B and power tables) loads without console messages and shows figures and tables",
  ignore: skip,
  async fn() {
    const dir = await writeAnalysisFixture();
    await addGateBAndPower(dir);
    const out = await Deno.makeTempDir();
    const { log } = console;
    console.log = () => {};
    try {
      deepEqual(await run([dir, "--out", out]), 0);
    } finally {
      console.log = log;
    }
    const { dom, console: lines } = await openInChromium(`${out}/report.html`);
    deepEqual(lines, []);
    const figures = dom.match(/<svg data-figure="[^"]+"/g) ?? [];
    deepEqual(figures.length, 7);
    ok(dom.includes("<caption>Paired-delta coefficients, reward</caption>"));
    ok(dom.includes("<caption>Paired differences between arms</caption>"));
    ok(dom.includes("<caption>Equipped vs bare, task-aligned</caption>"));
    ok(dom.includes("<caption>Minimum detectable effect by number of tasks</caption>"));
    // 15 tables of results (the study's three among them) and one provenance table per section (5).
    deepEqual((dom.match(/<table/g) ?? []).length, 20);
    // Plot's marks survived parsing: the forest plot's dots and the stability bars.
    ok((dom.match(/<circle/g) ?? []).length >= 8);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test({
  name: "chromium: gate report --pdf prints on A4 pages, as docs/notebooks.md says (not Letter)",
  ignore: skip,
  async fn() {
    const dir = await writeAnalysisFixture({ heldout: false, study: false });
    const out = await Deno.makeTempDir();
    const { log } = console;
    console.log = () => {};
    try {
      deepEqual(await run([dir, "--out", out, "--pdf"]), 0);
    } finally {
      console.log = log;
    }
    // Chromium writes each page's MediaBox in points; A4 is 210 x 297 mm = 595.28 x 841.89 pt.
    const pdf = new TextDecoder("latin1").decode(await Deno.readFile(`${out}/report.pdf`));
    const boxes = [...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)]
      .map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
    ok(boxes.length > 0, "no page sizes found");
    deepEqual(new Set(boxes.map((b) => b.join("x"))), new Set(["595x842"]));
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test("deno task report-pdf has the gate task's permissions plus chromium (figures still get their PDF)", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url))).tasks;
  const flags = (task: string) => {
    const words: string[] = task.split(/\s+/);
    const run = words.find((w) => w.startsWith("--allow-run="))?.slice("--allow-run=".length);
    return {
      run: (run ?? "").split(",").sort(),
      rest: words.filter((w) => w.startsWith("--allow-") && !w.startsWith("--allow-run=")).sort(),
    };
  };
  const gate = flags(tasks.gate), pdf = flags(tasks["report-pdf"]);
  deepEqual(pdf.run, [...gate.run, "chromium"].sort());
  deepEqual(pdf.rest, gate.rest);
});
