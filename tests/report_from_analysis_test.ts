/**
 * `gate report` on the real output directory of `gate analyze` (not a
 * hand-made fixture): a synthetic gate with two true effects is analysed,
 * then reported; the report must show the analysis's own numbers. And a
 * broken output read back by `gate report`, `gate plan-power --from` or
 * `gate history` is refused as output_schema_mismatch with file and path.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { formatEstimate } from "../lib/table/format.ts";
import { addSlots, quiet, tempDir, writeGateFixture } from "./fixtures.ts";

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

/** Runs `gate <args>` and returns the exit code and the printed lines. */
async function gate(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  console.error = () => {};
  try {
    return { code: await main(args), lines };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("gate analyze then gate report on its output: the report shows the analysis's numbers", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 60,
    slots: addSlots(4),
    effects: { c1: 0.25, c2: 0.12 },
    noise: 0.05,
    budgetK: 2,
  });
  const an = join(dir.path, "an"), rep = join(dir.path, "rep");
  deepEqual(
    await quiet(() =>
      main(["analyze", fx.gateDir, "--bootstrap", "200", "--seed", "5", "--out", an])
    ),
    0,
  );
  deepEqual(await quiet(() => main(["report", an, "--out", rep])), 0);

  const contributions = await readJson(join(an, "contributions.json"));
  const selection = await readJson(join(an, "selection.json"));
  // The fixture's true effects: c1 and c2 are selected, in that order, the others are not.
  deepEqual(selection.selected, ["c1", "c2"]);
  deepEqual(contributions.n_pairs, 60);
  const c1 = contributions.metrics.reward.coefficients.c1.estimate;
  ok(Math.abs(c1 - 0.25) < 0.05, `c1 ${c1}`);

  const meta = await readJson(join(rep, "report.json"));
  deepEqual(meta.sections.map((s: { kind: string }) => s.kind), ["gate"]);
  deepEqual(Object.keys(meta.inputs), ["contributions.json", "selection.json"]);
  deepEqual(
    meta.inputs["contributions.json"],
    sha256Hex(await Deno.readFile(join(an, "contributions.json"))),
  );
  deepEqual(meta.sources[0].provenance["contributions.json"].draws, 200);
  deepEqual(meta.sources[0].provenance["contributions.json"].seed, 5);

  const html = await Deno.readTextFile(join(rep, "report.html"));
  ok(html.includes("<caption>Selection by reward: positive top-2</caption>"));
  ok(html.includes("<caption>Selection stability of reward (K = 2)</caption>"));
  // The coefficient table shows the estimate and the bootstrap interval of contributions.json.
  const [lo, hi] = contributions.metrics.reward.coefficients.c1.ci;
  ok(
    html.includes(`${formatEstimate(c1)} [${formatEstimate(lo)}, ${formatEstimate(hi)}]`),
    `c1 ${formatEstimate(c1)} [${formatEstimate(lo)}, ${formatEstimate(hi)}] not in the report`,
  );
  ok(html.includes(`<td class="l">pairs</td><td class="l">${contributions.n_pairs}</td>`));
  // The fit numbers the file holds reach the table note (as in gate analyze's own tables).
  ok(
    html.includes(
      `n = 60 pairs over 60 tasks, residual df ${contributions.metrics.reward.df_resid},`,
    ),
  );
  deepEqual(contributions.metrics.reward.df_resid, 56);
  ok(
    html.includes(
      `<td class="l">baseline sha256</td><td class="l">${contributions.baseline.sha256}</td>`,
    ),
  );
});

Deno.test("a broken output read back is output_schema_mismatch for report, plan-power --from, history and ledger-audit --history", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 30, slots: addSlots(3), budgetK: 1 });
  const an = join(dir.path, "an");
  deepEqual(await quiet(() => main(["analyze", fx.gateDir, "--bootstrap", "0", "--out", an])), 0);
  // gate ledger-audit --history reads history.json back: a broken one is refused the same way.
  const h = join(dir.path, "h");
  deepEqual(await quiet(() => main(["history", an, "--out", h])), 0);
  const history = await readJson(join(h, "history.json"));
  history.steps[0].step = 0;
  await Deno.writeTextFile(join(h, "history.json"), JSON.stringify(history));
  const audited = await gate([
    "ledger-audit",
    join(an, "ledger.jsonl"),
    "--history",
    h,
    "--out",
    join(dir.path, "la"),
  ]);
  deepEqual(audited.code, 2);
  deepEqual(
    (await readJson(join(dir.path, "la", "validation.json"))).issues.map((
      i: { code: string; path: string },
    ) => [i.code, i.path]),
    [["output_schema_mismatch", "steps.0.step"]],
  );

  const selection = await readJson(join(an, "selection.json"));
  selection.decisions[1].status = "maybe";
  await Deno.writeTextFile(join(an, "selection.json"), JSON.stringify(selection));
  const file = join(an, "selection.json");
  for (const command of [["report", an], ["plan-power", "--from", an], ["history", an]]) {
    const out = join(dir.path, `out-${command[0]}`);
    const { code, lines } = await gate([...command, "--out", out]);
    deepEqual(code, 2, command[0]);
    const issues = (await readJson(join(out, "validation.json"))).issues;
    deepEqual(
      issues.map((i: { code: string; file: string; path: string }) => [i.code, i.file, i.path]),
      [["output_schema_mismatch", file, "decisions.1.status"]],
      command[0],
    );
    ok(lines[0]!.startsWith(`output_schema_mismatch  ${file} decisions.1.status  `), lines[0]);
  }
});
