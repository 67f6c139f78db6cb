/**
 * One format everywhere: the same tables rendered as Markdown, LaTeX, HTML
 * and a notebook display bundle, each checked against a committed snapshot
 * (tests/snapshots/format_*; regenerate with GATELAB_UPDATE_SNAPSHOTS=1 and
 * review the diff), and the same number, interval and status spelled the
 * same way in every rendering. Input: the hand-made analysis of
 * tests/html_fixture.ts.
 */
import { deepEqual, ok } from "node:assert/strict";
import { assertSnapshotFile } from "./study_snapshot.ts";
import { CONTRIBUTIONS as RAW_CONTRIBUTIONS, SELECTION as RAW_SELECTION } from "./html_fixture.ts";
import { ContributionsSchema, SelectionSchema } from "../lib/contract/outputs/mod.ts";
import { coefficientTables, selectionTable } from "../lib/analyze/tables.ts";
import { toLatex, toMarkdown } from "../lib/table/table.ts";
import { toHtmlTable } from "../lib/report/html_table.ts";
import { displayTable, JUPYTER_DISPLAY } from "../lib/report/display.ts";
import { formatWithInterval, statusLabel } from "../lib/table/format.ts";

// As the report reads them: checked by the output schemas.
const CONTRIBUTIONS = ContributionsSchema.parse(RAW_CONTRIBUTIONS);
const SELECTION = SelectionSchema.parse(RAW_SELECTION);
const tables = [...coefficientTables(CONTRIBUTIONS), selectionTable(SELECTION)];

Deno.test("format snapshot: Markdown", async () => {
  await assertSnapshotFile("format_tables.md.snap", tables.map(toMarkdown).join("\n"));
});

Deno.test("format snapshot: LaTeX", async () => {
  await assertSnapshotFile("format_tables.tex.snap", tables.map(toLatex).join("\n"));
});

Deno.test("format snapshot: HTML", async () => {
  await assertSnapshotFile("format_tables.html.snap", tables.map((t) => toHtmlTable(t)).join("\n"));
});

Deno.test("format snapshot: notebook display bundle", async () => {
  const bundles = tables.map((t) => displayTable(t, { latex: true })[JUPYTER_DISPLAY]());
  await assertSnapshotFile("format_tables.notebook.json.snap", JSON.stringify(bundles, null, 1));
});

Deno.test("the same coefficient, interval and status read the same in every rendering", () => {
  const column = CONTRIBUTIONS.columns[0]!;
  const c = CONTRIBUTIONS.metrics["reward"]!.coefficients[column.version_id]!;
  const cell = formatWithInterval(c.estimate, c.ci);
  ok(/^-?\d+\.\d{3} \[-?\d+\.\d{3}, -?\d+\.\d{3}\]$/.test(cell), cell);
  const [coefficients, selection] = [tables[0]!, tables[tables.length - 1]!];
  ok(toMarkdown(coefficients).includes(`| ${cell} |`));
  ok(toHtmlTable(coefficients).includes(`>${cell}</td>`));
  // LaTeX: the estimate and the interval's two ends in columns of their own.
  const [estimate, lower, upper] = cell.replace(/[[\],]/g, "").split(" ");
  ok(toLatex(coefficients).includes(`$${estimate}$ & $[${lower}$, & $${upper}]$`));
  for (const d of SELECTION.decisions) {
    const status = statusLabel(d.status);
    ok(toMarkdown(selection).includes(`| ${status} |`), status);
    ok(toHtmlTable(selection).includes(`>${status}</td>`), status);
  }
  // One word for the coefficient in both tables' headers.
  ok(coefficients.columns.some((col) => col.label.startsWith("coefficient [95% CI")));
  deepEqual(selection.columns.filter((col) => col.label === "coefficient").length, 1);
});

Deno.test("Markdown tables never pass raw HTML from the data through", () => {
  const hostile = "<img src=x onerror=alert(1)>";
  const t = coefficientTables({
    ...CONTRIBUTIONS,
    columns: [{
      version_id: hostile,
      slot_id: "<b>s</b>",
      chunk_id: "<script>x</script>",
      role: "add",
    }],
    metrics: {
      reward: {
        masked_mean: 0.5,
        bare_mean: 0.25,
        delta_mean: 0.25,
        coefficients: { [hostile]: { estimate: 0.1, se_hc3: 0.01, p: 0.00001 } },
      },
    },
  })[0]!;
  const md = toMarkdown(t);
  ok(!/<(img|script|b)\b/i.test(md), md);
  ok(md.includes("&lt;script>x&lt;/script>"));
  ok(md.includes("| <0.001 |"), "the p-value floor stays readable");
});
