/**
 * The report's readers and cards for `gate sequential` and `gate ladder`,
 * on the demo's outputs (tests/demo_outputs.ts). Reference numbers:
 * tests/data/sequential_reference.json (`python3
 * scripts/reference/sequential_avlm.py`: numpy.linalg.lstsq on every
 * prefix, the avlm formulas written out independently, selection
 * stability) and tests/data/ladder_reference.json (`python3
 * scripts/reference/ladder_eprocess.py`: scipy's betaln/betainc for the
 * e-values, pairing, exits and baseline prefill re-decided
 * independently). The reader must carry those numbers into the report
 * unchanged; hand-broken files are schema errors with their field path.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  type AnalysisOutputs,
  readAnalysisDir,
  renderReport,
  reportSections,
} from "../lib/report/mod.ts";
import type { Table } from "../lib/table/table.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { demoOutputs } from "./demo_outputs.ts";
import { quiet, tempDir } from "./fixtures.ts";
import { run } from "../lib/cli/report.ts";

const readRef = async (name: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`./data/${name}`, import.meta.url)));
const SEQ = await readRef("sequential_reference.json");
const LADDER = await readRef("ladder_reference.json");
const LADDER_TYPES = ["counting", "temporal-order", "spatial-relation"] as const;

async function read(dir: string): Promise<AnalysisOutputs> {
  const r = await readAnalysisDir(dir);
  ok(r.ok, JSON.stringify(r.issues));
  return r.value;
}

const tables = (items: readonly unknown[]) =>
  items.filter((i): i is Table => typeof i === "object" && i !== null && "rows" in i);
const cell = (table: Table, item: string) => table.rows.find((r) => r[0] === item)?.[1];

Deno.test("sequential.json: the reader keeps the reference's rows, columns, estimates at N and stable n", async () => {
  const dir = `${await demoOutputs()}/sequential-a`;
  const outputs = await read(dir);
  const seq = outputs.sequential!;
  deepEqual([seq.rows, seq.columns, seq.alpha, seq.phi], [
    SEQ.rows,
    SEQ.columns,
    SEQ.alpha,
    SEQ.phi,
  ]);
  deepEqual(Object.keys(seq.metrics), Object.keys(SEQ.metrics));
  for (const [metric, ref] of Object.entries<Record<string, unknown>>(SEQ.metrics)) {
    const m = seq.metrics[metric]!;
    equal(m.selection_stable_from, ref["selection_stable_from"], metric);
    const last = m.n.length - 1;
    equal(m.n[last], SEQ.rows);
    for (
      const [id, v] of Object.entries<{ estimate: Record<string, number> }>(
        ref["versions"] as Record<string, { estimate: Record<string, number> }>,
      )
    ) {
      const got = m.versions[id]!.estimate[last]!;
      const want = v.estimate[String(SEQ.rows)]!;
      ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${metric} ${id}`);
    }
  }
  // Provenance: the sha256 of the very bytes read and the command that wrote them.
  deepEqual(Object.keys(outputs.inputs), ["sequential.json"]);
  equal(
    outputs.inputs["sequential.json"],
    sha256Hex(await Deno.readFile(`${dir}/sequential.json`)),
  );
  ok(outputs.provenance!["sequential.json"]!.generator!.includes("gate sequential"));
  equal(outputs.provenance!["sequential.json"]!.seed, null); // run order: no seed
});

Deno.test("sequential section: overview states the model, one table and two figures per metric", async () => {
  const outputs = await read(`${await demoOutputs()}/sequential-a`);
  const [section, ...rest] = reportSections(outputs);
  deepEqual(rest, []);
  equal(section!.kind, "sequential");
  equal(section!.heading, "Sequential re-analysis (gate-a)");
  deepEqual(section!.files, ["sequential.json"]);
  const metrics = Object.keys(SEQ.metrics);
  const figures = section!.items.flatMap((i) => ("svg" in i ? [i.name] : []));
  deepEqual(
    figures,
    metrics.flatMap((m) => [`sequential_funnel_${m}`, `sequential_selection_${m}`]),
  );
  const [overview, ...perMetric] = tables(section!.items);
  // The model the confidence sequences assume, as sequential.json records it.
  ok(
    String(overview!.notes![0]).startsWith(
      "Model assumed: Gaussian, homoskedastic errors given the design",
    ),
  );
  equal(cell(overview!, "rows"), "400");
  equal(cell(overview!, "rollouts (bare and masked)"), "800");
  equal(perMetric.length, metrics.length);
  // The reward table: estimate at N of query-formulation.v1 (reference 0.107623428788) in 3 decimals.
  const reward = perMetric[0]!;
  const row = reward.rows.find((r) => r[0] === "query-formulation.v1")!;
  ok(row[1]!.startsWith("0.108\n["), row[1]);
  ok(
    reward.notes!.some((n) =>
      typeof n === "string" &&
      n.startsWith(`Selection stable from n = ${SEQ.metrics.reward.selection_stable_from} `)
    ),
  );
});

Deno.test("ladder_result.json: the reader keeps the reference's exits, cumulative counts and prefill", async () => {
  const demo = await demoOutputs();
  for (const type of LADDER_TYPES) {
    const ref = LADDER.demo[type];
    const ladder = (await read(`${demo}/ladder-${type}`)).ladder!;
    deepEqual([ladder.task_type, ladder.exit, ladder.exit_block], [type, ref.exit, ref.exit_block]);
    const last = ref.blocks[ref.blocks.length - 1];
    const { W, L, E, INFRA, units } = ladder.counts;
    deepEqual({ W, L, E, INFRA, units }, {
      W: last.W,
      L: last.L,
      E: last.E,
      INFRA: last.INFRA,
      units: last.units,
    });
    const { base_units, served, saved } = ladder.prefill!;
    deepEqual({ base_units, served, saved }, ref.prefill);
  }
});

Deno.test("ladder cards: exit and block in the heading, counts, cache savings, block table, figure", async () => {
  const demo = await demoOutputs();
  const want = {
    counting: ["accept after block 1", "7 / 0 / 8 / 1 (16)", "15 of 16", 15],
    "temporal-order": ["reject after block 2", "2 / 14 / 7 / 1 (24)", "0 of 24", 0],
    "spatial-relation": ["budget_exhausted after block 5", "12 / 11 / 22 / 3 (48)", "48 of 48", 48],
  } as const;
  for (const type of LADDER_TYPES) {
    const ref = LADDER.demo[type];
    const [exit, counts, served, saved] = want[type];
    // The literal values above are the reference's, restated.
    equal(`${ref.exit} after block ${ref.exit_block}`, exit);
    equal(ref.prefill.saved, saved);
    const [section] = reportSections(await read(`${demo}/ladder-${type}`));
    equal(section!.kind, "ladder");
    equal(section!.heading, `Ladder gate ${type}: ${exit}`);
    const [decision, blocks] = tables(section!.items);
    equal(cell(decision!, "exit"), exit);
    equal(cell(decision!, "W / L / E / INFRA (units)"), counts);
    equal(cell(decision!, "base-arm units served from cache"), served);
    equal(cell(decision!, "base-arm inferences saved"), String(saved));
    equal(cell(decision!, "cache entries"), "175"); // baseline.jsonl: 176 units, one INFRA
    equal(cell(decision!, "INFRA baseline units left out"), "1");
    const spec = JSON.parse(await Deno.readTextFile(`data/demo/ladder/${type}/ladder.json`));
    equal(cell(decision!, "base skill sha256"), `${spec.base_skill_sha256.slice(0, 16)}…`);
    equal(blocks!.label, `tab:ladder-${type}`);
    equal(blocks!.rows.length, ref.blocks.length);
    deepEqual(
      blocks!.rows.at(-1)!.slice(0, 6),
      ["block", "W", "L", "E", "INFRA", "units"].map((k) => String(ref.blocks.at(-1)[k])),
    );
    deepEqual(section!.items.flatMap((i) => ("svg" in i ? [i.name] : [])), [`ladder_${type}`]);
  }
});

Deno.test("gate report puts sequential after the gate and ladder cards after Gate B, whatever the order given", async () => {
  const demo = await demoOutputs();
  await using out = await tempDir();
  const dirs = [
    "ladder-spatial-relation",
    "study",
    "sequential-a",
    "ladder-counting",
    "gate-b",
    "gate-a",
  ];
  equal(await quiet(() => run([...dirs.map((d) => `${demo}/${d}`), "--out", out.path])), 0);
  const meta = JSON.parse(await Deno.readTextFile(`${out.path}/report.json`));
  deepEqual(meta.sections.map((s: { kind: string }) => s.kind), [
    "gate",
    "sequential",
    "gate_b",
    "ladder",
    "ladder",
    "study",
  ]);
  // Ladder cards keep the order their directories were given in.
  deepEqual(meta.sections.slice(3, 5).map((s: { heading: string }) => s.heading), [
    "Ladder gate spatial-relation: budget_exhausted after block 5",
    "Ladder gate counting: accept after block 1",
  ]);
  const html = await Deno.readTextFile(`${out.path}/report.html`);
  ok(
    html.includes(
      `sha256 ${sha256Hex(await Deno.readFile(`${demo}/ladder-counting/ladder_result.json`))}`,
    ),
  );
  ok(html.includes('<svg data-figure="sequential_funnel_reward"'));
  ok(html.includes('<svg data-figure="ladder_counting"'));
  // Renders the same bytes twice.
  const outputs = await Promise.all(dirs.map((d) => read(`${demo}/${d}`)));
  equal(renderReport(outputs).html, renderReport(outputs).html);
});

Deno.test("hand-broken sequential.json and ladder_result.json: output_schema_mismatch with file and field path", async () => {
  const demo = await demoOutputs();
  await using dir = await tempDir();
  const seq = JSON.parse(await Deno.readTextFile(`${demo}/sequential-a/sequential.json`));
  seq.metrics.reward.versions["query-formulation.v1"].fixed_n_interval = [0.1];
  const ladder = JSON.parse(
    await Deno.readTextFile(`${demo}/ladder-counting/ladder_result.json`),
  );
  ladder.exit = "maybe";
  await Deno.writeTextFile(`${dir.path}/sequential.json`, JSON.stringify(seq));
  await Deno.writeTextFile(`${dir.path}/ladder_result.json`, JSON.stringify(ladder));
  const r = await readAnalysisDir(dir.path);
  ok(!r.ok);
  deepEqual(
    r.issues.map((i) => [i.code, i.file, i.path]),
    [
      [
        "output_schema_mismatch",
        `${dir.path}/sequential.json`,
        "metrics.reward.versions.query-formulation.v1.fixed_n_interval",
      ],
      ["output_schema_mismatch", `${dir.path}/ladder_result.json`, "exit"],
    ],
  );
});

Deno.test("audits: the validation.json of ledger-audit and firewall becomes a section listing every finding; other commands' is not read", async () => {
  const demo = await demoOutputs();
  const firewall = await read(`${demo}/firewall`);
  const file = JSON.parse(await Deno.readTextFile(`${demo}/firewall/validation.json`));
  const [section] = reportSections(firewall);
  deepEqual([section!.kind, section!.heading, section!.files], [
    "audit",
    "Audit: gold firewall",
    ["validation.json"],
  ]);
  const [summary, findings] = tables(section!.items);
  // The demo plants six leaks (tests/audit_test.ts asserts each is found).
  deepEqual(summary!.rows, [
    ["result", "6 findings"],
    ["gold_asin", "2"],
    ["instance_identifier", "1"],
    ["task_id_leak", "1"],
    ["title_leak", "2"],
  ]);
  deepEqual(
    findings!.rows.map((r) => [r[0], r[1], r[2]!.replaceAll("\n", " ")]),
    file.issues.map((
      i: { code: string; file: string; line: number; path: string; message: string },
    ) => [
      i.code,
      `${i.file}:${i.line}\n${i.path}`,
      i.message,
    ]),
  );
  deepEqual(findings!.rows[2]!.slice(0, 2), [
    "task_id_leak",
    "data/demo/firewall/cards.jsonl:2\ndeployable_abstraction.observable_trigger",
  ]);
  const ledger = reportSections(await read(`${demo}/ledger-audit`));
  deepEqual(ledger.map((s) => s.heading), ["Audit: proposal ledger"]);
  deepEqual(tables(ledger[0]!.items)[1]!.rows.map((r) => r.slice(0, 2)), [[
    "reproposed_rejected",
    "data/demo/ledger/ledger.jsonl:10\ncandidate_id",
  ]]);
  // sequential-a also holds a validation.json (of gate sequential): not an audit, not an input.
  const sequential = await read(`${demo}/sequential-a`);
  deepEqual([sequential.audit, Object.keys(sequential.inputs)], [null, ["sequential.json"]]);
});
