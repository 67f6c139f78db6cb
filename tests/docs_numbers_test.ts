/**
 * Every number the docs quote from the demo, checked against the demo's
 * outputs (tests/demo_outputs.ts, the demo's commands run once for every
 * test file) and those of the few extra commands the docs show: the test
 * rebuilds each quoted passage from the output files (or compares a shown
 * console block line by line with what the command printed) and requires
 * the doc to contain it. When the demo data or the method changes, this
 * test names the stale passage and the text it should now read.
 *
 * Passages quoted from truth.json (the simulator's expectations) are
 * checked against data/demo/truth.json the same way.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { misfitDiagnostics } from "../lib/infer/diagnostics/diagnostics.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { demoOutputs } from "./demo_outputs.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const DEMO = await demoOutputs();
// The few extra commands the docs show write here (the demo's outputs are read-only).
const OUT = await Deno.makeTempDir({ prefix: "gatelab-docs-numbers-" });
globalThis.addEventListener("unload", () => Deno.removeSync(OUT, { recursive: true }));

/** Runs one `gate` command line; returns its exit code and printed lines. */
async function gate(args: readonly string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...xs: unknown[]) => void lines.push(...xs.join(" ").split("\n"));
  console.error = () => {};
  try {
    return { code: await main([...args]), lines };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** A JSON file of the demo's outputs (or of the extra commands', under `OUT`). */
const read = async (path: string, dir = DEMO): Promise<Json> =>
  JSON.parse(await Deno.readTextFile(join(dir, path)));
const doc = (name: string) => Deno.readTextFile(`docs/${name}`);
const truth: Json = JSON.parse(await Deno.readTextFile("data/demo/truth.json"));

/** Whitespace runs as one space (docs are re-wrapped by `deno fmt`). */
const flat = (text: string) => text.replace(/\s+/g, " ");

/** Requires `text` in the doc (up to line wrapping), naming what it should say. */
function quoted(docText: string, name: string, text: string): void {
  ok(
    flat(docText).includes(flat(text)),
    `docs/${name} is stale: it should contain\n  ${flat(text)}`,
  );
}

/** Fixed decimals; `+` before non-negative numbers when `signed`. */
function fixed(x: number, digits: number, signed = false): string {
  const s = x.toFixed(digits);
  return signed && !s.startsWith("-") ? `+${s}` : s;
}

/** The lines of the fenced block after the first line containing `marker`. */
function blockAfter(text: string, marker: string): string[] {
  const at = text.indexOf(marker);
  ok(at >= 0, `marker not found: ${marker}`);
  const start = text.indexOf("```", at);
  const body = text.indexOf("\n", start) + 1;
  return text.slice(body, text.indexOf("```", body)).trimEnd().split("\n");
}

/**
 * Every line of a console example must be printed verbatim; a line that is
 * only `...` stands for omitted lines, and text after `...` inside a line
 * is not compared.
 */
function consoleExample(shown: readonly string[], actual: readonly string[], what: string): void {
  for (const line of shown) {
    if (line.startsWith("$") || line.trim() === "...") continue;
    const cut = line.indexOf("...");
    const want = cut === -1 ? line : line.slice(0, cut);
    ok(
      actual.some((a) => (cut === -1 ? a === want : a.startsWith(want))),
      `${what}: the shown line\n  ${line}\nis not printed; the command prints\n  ${
        actual.join("\n  ")
      }`,
    );
  }
}

Deno.test("docs/analysis.md: the gate analyze example is what the command prints", async () => {
  const r = await gate([
    "analyze",
    "data/demo/ckpt-a/gate-a",
    "--out",
    join(OUT, "gate-a-b0"),
    "--bootstrap",
    "0",
  ]);
  deepEqual(r.code, 0);
  const shown = blockAfter(await doc("analysis.md"), "Example (demo data;");
  consoleExample(shown, r.lines, "docs/analysis.md");
});

Deno.test("docs/validation.md: the gate sql example is what the command prints", async () => {
  const text = await doc("validation.md");
  const shown = blockAfter(text, "runs one query and prints an aligned table");
  const command = shown[0]!;
  const query = /--query "(.*)"$/.exec(command)?.[1];
  ok(query, "no --query in the example");
  const r = await gate(["sql", "data/demo/ckpt-a/gate-a", "--query", query]);
  deepEqual(r.code, 0);
  deepEqual(shown.slice(1), r.lines.filter((l) => l !== ""));
});

Deno.test("docs/inference.md: held-out, across-gate, power and interaction numbers", async () => {
  const text = await doc("inference.md");
  const h = await read("heldout-a/heldout.json");
  const s = h.summary;
  quoted(
    text,
    "inference.md",
    `Demo (\`data/demo/ckpt-a/gate-a\`, kfold 5 x 20): mean Spearman ${
      fixed(s.spearman.mean, 2)
    }, mean top-K overlap ${fixed(s.topk_overlap.mean, 1)} of ${h.budget_k},\ngain predicted ${
      fixed(s.gain_predicted.mean, 3)
    } vs realised ${fixed(s.gain_realised.mean, 3)} (ratio ${fixed(h.realised_to_predicted, 2)}).`,
  );
  const against = await gate([
    "heldout",
    "data/demo/ckpt-a/gate-a",
    "--plan",
    "data/plans/heldout-kfold5.json",
    "--against",
    "data/demo/ckpt-b/gate-online-r1",
    "--against",
    "data/demo/ckpt-b/gate-online-r2",
    "--out",
    join(OUT, "heldout-against"),
  ]);
  deepEqual(against.code, 0);
  const a = (await read("heldout-against/heldout.json", OUT)).against;
  quoted(
    text,
    "inference.md",
    `B: Spearman ${
      fixed(a.spearman_shared, 2)
    } over the ${a.shared.length} shared versions; predicted ${
      fixed(a.gain_predicted, 3)
    } vs realised ${fixed(a.gain_realised, 3)}.`,
  );

  const p = await read("power-a/power.json");
  const c = (await read("gate-a/contributions.json")).metrics.reward.coefficients;
  const hc3 = Object.values(c).map((x: Json) => x.se_hc3 as number);
  quoted(
    text,
    "inference.md",
    `(N ${p.design.tasks}, M ${p.design.columns}, p ${fixed(p.design.p_present, 3)}, s ${
      fixed(p.design.resid_sd, 3)
    }) the analytic SE is ${fixed(p.analytic.se_beta, 4)}, the simulated ${
      fixed(p.simulation.simulated_se, 4)
    } and the HC3 SEs\n  of the fitted coefficients ${fixed(Math.min(...hc3), 3)}-${
      fixed(Math.max(...hc3), 3)
    }.`,
  );

  const d = await read("gate-a/diagnostics.json");
  const pairs = [...d.interactions.pairs].sort((x: Json, y: Json) => x.p_value - y.p_value);
  const [top, next] = pairs;
  const exp = (x: number) => x.toExponential(1).replace("e-", "e-");
  quoted(
    text,
    "inference.md",
    `found: gamma = ${fixed(top.gamma, 3)} with HC3 se ${fixed(top.se, 3)} on reward, F(1, ${
      d.n_pairs - Object.keys(c).length - 1
    }), p = ${exp(top.p_value)}, Holm p = ${exp(top.p_holm)}, rank 1 of\n${pairs.length} pairs`,
  );
  quoted(text, "inference.md", `(the runner-up has Holm p ${fixed(next.p_holm, 3)})`);
  deepEqual([top.a, top.b], ["candidate-inspection.v1", "candidate-comparison.v1"]);
  quoted(
    text,
    "inference.md",
    `4.3 x ${fixed(top.se, 2)} = ${fixed(4.3 * Number(fixed(top.se, 2)), 2)}`,
  );
});

Deno.test("docs/reward.md and docs/study.md: the demo's recipe comparison and study comparisons", async () => {
  const r = (await read("reward/recipe_comparison.json")).recipes;
  const ci = (x: readonly number[]) => `[${fixed(x[0]!, 3)}, ${fixed(x[1]!, 3)}]`;
  quoted(
    await doc("reward.md"),
    "reward.md",
    `recipe B separates the groups by\n${fixed(r.B.difference, 3)} ${ci(r.B.ci)} against ${
      fixed(r.A.difference, 3)
    } ${ci(r.A.ci)} for recipe A, with the same Spearman rho (${fixed(r.B.spearman_rho, 2)}):`,
  );
  deepEqual(fixed(r.A.spearman_rho, 2), fixed(r.B.spearman_rho, 2));
  const s = await read("study/study.json");
  const [mb, mo] = s.comparisons;
  deepEqual([mb.a, mb.b, mo.a, mo.b], ["M", "B", "M", "O"]);
  quoted(
    await doc("study.md"),
    "study.md",
    `is ${fixed(mb.estimate, 3)} with 95% interval ${
      ci(mb.ci)
    }, and M - O is incomplete with bounds ${ci(mo.bounds)}.`,
  );
  const demo = await doc("demo.md");
  const o = s.arms.O;
  quoted(
    demo,
    "demo.md",
    `gives M - B complete (${fixed(mb.estimate, 3)}, CI ${
      ci(mb.ci)
    }) and M - O\nincomplete (bounds ${ci(mo.bounds)}), arm O with ${
      o.planned - o.slots.ambiguous - o.slots.infra_failure - o.slots.no_attempts
    } of ${o.planned} slots resolved;`,
  );
  const e = truth.study.expected_resolution;
  quoted(demo, "demo.md", `B ${fixed(e.B, 3)}, O ${fixed(e.O, 3)}, M ${fixed(e.M, 3)}`);
});

Deno.test("docs/demo.md: Gate B paragraph from comparison.json and truth.json", async () => {
  const text = await doc("demo.md");
  const c = await read("gate-b/comparison.json");
  const r = c.metrics.reward, s = c.metrics.r_success;
  const ci = (x: readonly number[]) => `[${fixed(x[0]!, 4)}, ${fixed(x[1]!, 4)}]`;
  quoted(
    text,
    "demo.md",
    `\`gate compare\` gives bare ${fixed(r.bare, 4)}, equipped ${
      fixed(r.equipped, 4)
    }, difference ${fixed(r.difference, 4)}, 95% CI\n${
      ci(r.ci)
    } (10,000 paired task-bootstrap draws, seed ${c.bootstrap.seed}); r_success ${
      fixed(s.bare, 4)
    } to ${fixed(s.equipped, 4)},\ndifference ${fixed(s.difference, 4)}, CI ${ci(s.ci)}.`,
  );
  deepEqual(c.bootstrap.draws, 10000);
  const g = truth.gate_b;
  quoted(text, "demo.md", `reward paired mean difference ${fixed(r.difference, 4)}`);
  quoted(text, "demo.md", `expected\n${fixed(g.expected_difference.reward, 4)}`);
  quoted(text, "demo.md", `r_success ${fixed(s.difference, 4)}`);
  quoted(text, "demo.md", `expected ${fixed(g.expected_difference.r_success, 4)}`);
  quoted(text, "demo.md", `(true top 10: ${fixed(g.true_top_k.expected_difference.r_success, 4)})`);
  quoted(text, "demo.md", `it would be ${fixed(g.true_top_k.expected_difference.reward, 4)}`);
  quoted(
    text,
    "demo.md",
    `reward ${fixed(g.true_top_k.expected_difference.reward, 3, true)} against S_0's ${
      fixed(g.expected_difference.reward, 3, true)
    }.`,
  );
});

/** Rows of the markdown table whose header starts with `| version` after `marker`. */
function tableAfter(text: string, marker: string): string[][] {
  const at = text.indexOf(marker);
  ok(at >= 0, `marker not found: ${marker}`);
  const lines = text.slice(at).split("\n");
  const head = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|").slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

Deno.test("docs/demo.md: the recovered-versus-true tables match the refits and truth.json", async () => {
  const text = await doc("demo.md");
  const cases = [
    [
      "Gate A (reward, 400 pairs):",
      "gate-a",
      "se_hc3",
      truth.gate_a.expected_ols.reward,
      truth.gate_a.average_marginal_effect.reward,
    ],
    [
      "Online rounds pooled (reward, 800 rows, CR1 by task):",
      "online",
      "se_cluster",
      truth.online.expected_ols_pooled.reward,
      truth.online.average_marginal_effect_pooled.reward,
    ],
  ] as const;
  for (const [marker, dir, se, expected, ame] of cases) {
    const coefficients = (await read(`${dir}/contributions.json`)).metrics.reward.coefficients;
    const rows = tableAfter(text, marker);
    deepEqual(rows.map((r) => r[0]).sort(), Object.keys(coefficients).sort(), marker);
    for (const [version, ...cells] of rows) {
      const c = coefficients[version!];
      const want = [
        fixed(c.estimate, 4),
        fixed(c[se], 4),
        fixed(expected[version!], 4),
        fixed(ame[version!], 4),
        fixed((c.estimate - expected[version!]) / c[se], 2, true),
      ];
      deepEqual(cells, want, `docs/demo.md ${marker} row ${version}`);
    }
  }
  const selection = await read("gate-a/selection.json");
  quoted(
    text,
    "demo.md",
    "S_0 (rank order): " + selection.selected.map((v: string) => `\`${v}\``).join(", ") +
      ` (the full budget of ${selection.budget_k}).`,
  );
  deepEqual(selection.selected, truth.gate_b.selected_skills);
  const a = (await read("gate-a/contributions.json")).metrics.reward.coefficients;
  quoted(
    text,
    "demo.md",
    `\`review-reading.v1\`, coefficient ${fixed(a["review-reading.v1"].estimate, 3, true)}`,
  );
  quoted(
    text,
    "demo.md",
    `\`candidate-inspection.v1\` (${
      fixed(a["candidate-inspection.v1"].estimate, 3, true)
    }, noise on top of an expected ${
      fixed(truth.gate_a.expected_ols.reward["candidate-inspection.v1"], 3, true)
    })`,
  );
  quoted(
    text,
    "demo.md",
    `coefficients (${
      fixed(truth.gate_a.expected_ols.reward["candidate-inspection.v1"], 3, true)
    }, ${fixed(truth.gate_a.expected_ols.reward["candidate-comparison.v1"], 3, true)})`,
  );
  const product = truth.gate_a.interaction.expected_product_coefficient;
  quoted(
    text,
    "demo.md",
    `(reward ${fixed(product.reward, 4)}, r_success ${fixed(product.r_success, 4)})`,
  );
  quoted(text, "demo.md", `a product coefficient of about ${fixed(product.reward, 2)}`);
  const gain = truth.gate_b.expected_difference;
  quoted(
    text,
    "demo.md",
    `(expected reward ${fixed(gain.reward, 2, true)}, r_success ${
      fixed(gain.r_success, 2, true)
    } on the test split)`,
  );
});

Deno.test("docs/demo.md: the interaction screen table, one row per metric", async () => {
  const text = await doc("demo.md");
  const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
  const rows = tableAfter(text, "`wald_test(use_f=True)`");
  const product = truth.gate_a.interaction.expected_product_coefficient;
  const planted = "candidate-inspection.v1 x candidate-comparison.v1";
  for (const [metric, gamma, se, p, holm, rank, expected, flagged] of rows) {
    const screen = misfitDiagnostics(dataset!, { metric: metric! }).interactions;
    const pairs = [...screen.pairs].sort((x, y) => (x.p_value ?? 1) - (y.p_value ?? 1));
    const at = pairs.findIndex((x) => `${x.a} x ${x.b}` === planted);
    const pair = pairs[at]!;
    deepEqual(
      [gamma, se, p, rank, expected],
      [
        fixed(pair.gamma!, 3),
        fixed(pair.se!, 3),
        pair.p_value!.toExponential(1).replace(/e-(\d)$/, "e-0$1"),
        String(at + 1),
        fixed(product[metric!], 3),
      ],
      `docs/demo.md interaction row ${metric}`,
    );
    // Holm p to two significant digits; below 0.01 in exponent form.
    const holmShown = pair.p_holm! >= 1
      ? "1"
      : pair.p_holm! < 0.01
      ? pair.p_holm!.toExponential(1)
      : pair.p_holm!.toPrecision(2);
    deepEqual(holm, holmShown, `docs/demo.md interaction row ${metric} Holm p (${pair.p_holm})`);
    const others = screen.flagged.filter((f) => f !== planted);
    if (flagged === "the planted pair only") {
      deepEqual([screen.flagged.length, others.length], [1, 0], metric);
    } else if (flagged === "none") deepEqual(screen.flagged.length, 0, metric);
    else {
      deepEqual(others.length, 1, metric);
      const f = pairs.find((x) => `${x.a} x ${x.b}` === others[0])!;
      deepEqual(
        flagged,
        `\`${f.a.replace(/\.v1$/, "")} x ${f.b.replace(/\.v1$/, "")}\` (Holm ${
          fixed(f.p_holm!, 3)
        })`,
      );
    }
  }
  deepEqual(rows.length, 6);
});

Deno.test("README: its figure is the demo report's coefficient figure of Gate A, byte for byte", async () => {
  const shown = await Deno.readFile(new URL("../docs/figures/demo_forest.svg", import.meta.url));
  const made = await Deno.readFile(join(DEMO, "report", "figures", "forest.svg"));
  deepEqual(
    shown,
    made,
    "docs/figures/demo_forest.svg: copy reports/demo/report/figures/forest.svg",
  );
});
