/**
 * `gate import table` refuses bad input through the real CLI: exit 2, one
 * line per issue naming file, row (one-based, header excluded) and column,
 * and nothing written (--out does not appear). One case per problem the
 * import must catch (docs/import.md, "Bad input"). Most tables are JSON
 * Lines; the CSV cases go through gatelab's CSV parser (lib/import/read_csv.ts).
 *
 * Needs `deno` on PATH (the test task has --allow-run=deno).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkedImport, exists, gate, smallCsv, tempDir } from "./import_gate.ts";

const jsonl = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** A clean JSONL table of `n` tasks (bare + masked row each), versions a.v1 and b.v1. */
function rows(n = 4): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let t = 0; t < n; t++) {
    out.push({ task_id: `t${t}`, arm: "bare", reward: 0.5, "mask:a.v1": 0, "mask:b.v1": 0 });
    out.push({
      task_id: `t${t}`,
      arm: "masked",
      reward: 0.5 + t / 10,
      "mask:a.v1": t & 1,
      "mask:b.v1": (t >> 1) & 1,
    });
  }
  return out;
}

interface Case {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  readonly mapping?: unknown;
  /** Expected stderr lines (regexps), in order, before the summary line. */
  readonly lines: readonly RegExp[];
}

const CASES: readonly Case[] = [
  {
    name: "a required column missing, with the nearest column as a suggestion",
    file: "t.csv",
    text: smallCsv(2).replace("task_id", "taskid"),
    lines: [
      /^schema_error {2}t\.csv task_id {2}required column "task_id" is missing; nearest existing column: "taskid"$/,
      /^hint: a table with other column names imports through a mapping: --map <file> with columns\.task_id set to them \(docs\/import\.md, "The mapping file"\)$/,
    ],
  },
  {
    name: "a mask value that is not 0/1 (CSV row 3, header excluded)",
    file: "t.csv",
    text: smallCsv(2).replace("t1,bare,0.7,0.7,0,0,0", "t1,bare,0.7,0.7,0,2,0"),
    lines: [/^assignment_invalid {2}t\.csv:3 mask:b\.v1 {2}mask value 2 is not 0 or 1$/],
  },
  {
    name: "an injected id not among the declared versions",
    file: "t.jsonl",
    text: jsonl(
      rows().map((r, i) => ({ ...r, injected: i === 3 ? ["a.v1", "zz.v1"] : [] })),
    ),
    lines: [
      /^assignment_invalid {2}t\.jsonl:4 injected {2}injected id "zz\.v1" is not among the declared versions \(a\.v1, b\.v1\)$/,
    ],
  },
  {
    name: "two versions of one slot in one row",
    file: "t.jsonl",
    text: jsonl(
      rows().map((r, i) => ({
        ...r,
        "mask:a.v2": i === 5 ? 1 : 0,
        "mask:a.v1": i === 5 ? 1 : r["mask:a.v1"],
      })),
    ),
    mapping: {
      format: "gatelab.import-map/v1",
      versions: { "a.v1": { role: "old" }, "a.v2": { role: "new" }, "b.v1": {} },
    },
    lines: [
      /^assignment_invalid {2}t\.jsonl:6 mask:a\.v2 {2}two versions of slot "a" in one row \(a\.v1 and a\.v2\)/,
    ],
  },
  {
    name: "a masked row with no bare partner",
    file: "t.jsonl",
    text: jsonl(rows().filter((_, i) => i !== 2)),
    lines: [
      /^coverage_incomplete {2}t\.jsonl:3 task_id {2}masked row has no bare partner: no bare row for episode val\/t1\/0$/,
    ],
  },
  {
    name: "a bare row with no masked partner",
    file: "t.jsonl",
    text: jsonl(rows().filter((_, i) => i !== 5)),
    lines: [
      /^coverage_incomplete {2}t\.jsonl:5 task_id {2}bare row has no masked partner in round "\(default round\)": no masked row for episode val\/t2\/0$/,
    ],
  },
  {
    name: "duplicate completed rows for one episode",
    file: "t.jsonl",
    text: jsonl([...rows(), { ...rows()[1]!, reward: 0.9 }]),
    lines: [
      /^duplicate_completed {2}t\.jsonl:9 {2}a second completed row for episode val\/t0\/0 \(first: t\.jsonl row 2\)/,
    ],
  },
  {
    name: "a non-numeric and a non-finite reward",
    file: "t.csv",
    text: smallCsv(2).replace("t0,bare,0,0,", "t0,bare,abc,0,").replace(
      "t1,bare,0.7,0.7,",
      "t1,bare,inf,0.7,",
    ),
    lines: [
      /^reward_incomplete {2}t\.csv:1 reward {2}reward "abc" is not a finite number/,
      /^reward_incomplete {2}t\.csv:3 reward {2}reward "inf" is not a finite number/,
    ],
  },
  {
    name: "a CSV row with a field missing",
    file: "t.csv",
    text: smallCsv(2).replace("t1,bare,0.7,0.7,0,0,0", "t1,bare,0.7,0.7,0,0"),
    lines: [
      /^parse_error {2}t\.csv:3 mask:c\.v1 {2}cannot read as csv: the row has 6 field\(s\), the header 7 \(line 4\)$/,
    ],
  },
  {
    name: "a CSV quote left open",
    file: "t.csv",
    text: smallCsv(2).replace("t1,bare,", '"t1,bare,'),
    lines: [
      /^parse_error {2}t\.csv:3 task_id {2}cannot read as csv: a quoted field is not closed \(line 4\)$/,
    ],
  },
  {
    name: "a non-numeric reward far down the file (CSV row 24,999)",
    file: "t.csv",
    text: smallCsv(12500).replace("t12499,bare,0.3,0.3,", "t12499,bare,oops,0.3,"),
    lines: [/^reward_incomplete {2}t\.csv:24999 reward {2}reward "oops" is not a finite number/],
  },
  {
    name: "two checkpoints in one round",
    file: "t.jsonl",
    text: jsonl(
      rows().map((r, i) => ({ ...r, round: "r1", checkpoint_id: i === 7 ? "ck-2" : "ck-1" })),
    ),
    lines: [
      /^provenance_mismatch {2}t\.jsonl:8 checkpoint_id {2}round "r1" has rows from two checkpoints: "ck-1" \(t\.jsonl row 2\) and "ck-2"/,
    ],
  },
  {
    name: "unknown mapping keys, each named (with the nearest known key)",
    file: "t.jsonl",
    text: jsonl(rows()),
    mapping: {
      format: "gatelab.import-map/v1",
      colums: { task_id: "task_id" },
      provenance: { modle: "m" },
    },
    lines: [
      /^schema_error {2}mapping\.json provenance\.modle {2}unknown key "modle" \(did you mean model\?\)$/,
      /^schema_error {2}mapping\.json colums {2}unknown key "colums" \(did you mean columns\?\)$/,
    ],
  },
  {
    name: "a file that is not Parquet",
    file: "t.parquet",
    text: "PAR1 this is not a parquet file",
    lines: [
      /^parse_error {2}t\.parquet {2}cannot read as Parquet \(not a Parquet file, or truncated\)/,
    ],
  },
];

Deno.test("gate import table: each bad input is refused with exit 2, file:row column, nothing written", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, async () => {
      await using dir = await tempDir();
      await Deno.writeTextFile(join(dir.path, c.file), c.text);
      const args = ["import", "table", c.file, "--out", "out"];
      if (c.mapping !== undefined) {
        await Deno.writeTextFile(join(dir.path, "mapping.json"), JSON.stringify(c.mapping));
        args.push("--map", "mapping.json");
      }
      const ran = await gate(dir.path, args);
      equal(ran.code, 2, ran.stderr);
      const lines = ran.stderr.trimEnd().split("\n");
      deepEqual(lines.length, c.lines.length + 1, ran.stderr);
      c.lines.forEach((re, i) => match(lines[i]!, re));
      match(lines.at(-1)!, /^not imported: \d+ issue\(s\); nothing written$/);
      ok(!exists(join(dir.path, "out")), "nothing written");
      ok(!ran.stderr.includes("    at "), "no stack trace");
    });
  }
});

Deno.test("gate import table: a clean table imports; a re-import replaces --out whole", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "t.jsonl"), jsonl(rows()));
  const first = await gate(dir.path, ["import", "table", "t.jsonl", "--out", "out"]);
  equal(first.code, 0, first.stderr);
  match(first.stdout, /ok: imported 8 rows from 1 file\(s\): 1 bare run\(s\), 1 gate\(s\)/);
  const doc = checkedImport(
    JSON.parse(await Deno.readTextFile(join(dir.path, "out", "import.json"))),
  );
  deepEqual(doc.gates.map((g: { dir: string }) => g.dir), ["checkpoint-unrecorded/gate"]);
  // A refused re-import leaves the earlier import as it was.
  await Deno.writeTextFile(join(dir.path, "bad.jsonl"), jsonl(rows().slice(1)));
  const bad = await gate(dir.path, ["import", "table", "bad.jsonl", "--out", "out"]);
  equal(bad.code, 2);
  deepEqual(
    checkedImport(
      JSON.parse(await Deno.readTextFile(join(dir.path, "out", "import.json"))),
    ),
    doc,
  );
});

Deno.test("gate import table: two checkpoints with two rounds and one, from TSV through a mapping", async () => {
  await using dir = await tempDir();
  // Renamed columns and values, a component, a failed-then-completed attempt.
  const lines = ["problem\tcondition\tscore\tsolved\tckpt\twave\tm_a\tm_b\tstate\tnote"];
  for (const [ckpt, waves] of [["ck/1", ["w1", "w2"]], ["ck 2", ["w3"]]] as const) {
    for (let t = 0; t < 4; t++) {
      lines.push(`p${t}\tbase\t0.${t}\t0\t${ckpt}\t\t0\t0\tok\tb${t}`);
      for (const w of waves) {
        if (t === 1 && w === "w1") {
          lines.push(`p${t}\tskill\t\t\t${ckpt}\t${w}\t1\t0\terr\ttimeout`);
        }
        lines.push(`p${t}\tskill\t0.${t + 1}\t1\t${ckpt}\t${w}\t${t & 1}\t${(t >> 1) & 1}\tok\tm`);
      }
    }
  }
  await Deno.writeTextFile(join(dir.path, "t.tsv"), lines.join("\n") + "\n");
  await Deno.writeTextFile(
    join(dir.path, "m.json"),
    JSON.stringify({
      format: "gatelab.import-map/v1",
      columns: {
        task_id: "problem",
        arm: "condition",
        reward: "score",
        checkpoint_id: "ckpt",
        round: "wave",
        status: "state",
        components: { r_success: "solved" },
        mask: { "a.v1": "m_a", "b.v1": "m_b" },
      },
      arm_values: { bare: "base", masked: "skill" },
      status_values: { completed: "ok", failed: "err" },
      budget_k: 1,
      stage: "online",
    }),
  );
  const ran = await gate(dir.path, ["import", "table", "t.tsv", "--map", "m.json", "--out", "out"]);
  equal(ran.code, 0, ran.stderr);
  const doc = checkedImport(
    JSON.parse(await Deno.readTextFile(join(dir.path, "out", "import.json"))),
  );
  deepEqual(doc.runs.map((r: { dir: string; checkpoint_id: string }) => [r.dir, r.checkpoint_id]), [
    ["ck-1/bare-val", "ck/1"],
    ["ck-2/bare-val", "ck 2"],
  ]);
  deepEqual(
    doc.gates.map((g: { dir: string; gate_id: string; bare_run_dir: string }) => [
      g.dir,
      g.gate_id,
      g.bare_run_dir,
    ]),
    [
      ["ck-1/gate-w1", "w1", "ck-1/bare-val"],
      ["ck-1/gate-w2", "w2", "ck-1/bare-val"],
      ["ck-2/gate-w3", "w3", "ck-2/bare-val"],
    ],
  );
  // The unmapped column is kept; the failed attempt comes first, numbered 0.
  const traces = (await Deno.readTextFile(join(dir.path, "out", "ck-1/gate-w1/traces.jsonl")))
    .trim().split("\n").map((l) => JSON.parse(l));
  deepEqual(
    traces.filter((l) => l.task_id === "p1").map((l) => [l.attempt, l.status, l.reward, l.note]),
    [[0, "failed", null, "timeout"], [1, "completed", 0.2, "m"]],
  );
  deepEqual(traces[0].rewards, { r_success: 1 });
  const gateJson = JSON.parse(
    await Deno.readTextFile(join(dir.path, "out", "ck-1/gate-w2/gate.json")),
  );
  deepEqual([gateJson.stage, gateJson.budget_k, gateJson.bare_run_dir], [
    "online",
    1,
    "../bare-val",
  ]);
  const assignments =
    (await Deno.readTextFile(join(dir.path, "out", "ck-1/gate-w1/assignments.jsonl")))
      .trim().split("\n").map((l) => JSON.parse(l));
  deepEqual(assignments.map((a) => [a.task_id, a.slots]), [
    ["p0", { a: null, b: null }],
    ["p1", { a: "a.v1", b: null }],
    ["p2", { a: null, b: "b.v1" }],
    ["p3", { a: "a.v1", b: "b.v1" }],
  ]);
  // Both rounds of checkpoint 1 validate together over their one bare run.
  const v = await gate(dir.path, [
    "validate",
    "out/ck-1/gate-w1",
    "out/ck-1/gate-w2",
    "--out",
    "v",
  ]);
  equal(v.code, 0, v.stdout + v.stderr);
  match(v.stdout, /ok: 2 gate\(s\), 8 paired rows, 2 columns, 2 metrics/);
});
