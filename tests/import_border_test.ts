/**
 * The border of `gate import table`, through the real CLI: ids that are not
 * text, source values that would share a directory, an import whose own
 * output would not validate, the first import without a mapping, and job
 * seeds recorded without `provenance.send_seed`. Each case asserts the
 * exit code, the lines printed and what is (or is not) written.
 *
 * Needs `deno`, and `python3` with pyarrow for the Parquet cases.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkedImport, exists, gate, tempDir } from "./import_gate.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { EXIT_WITHOUT_TEARDOWN } from "./python_exit.ts";
import { createHash } from "node:crypto";

const jsonl = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** A clean table of `n` tasks (a bare and a masked row each), versions a.v1 and b.v1. */
function rows(n = 4, over: (t: number, arm: string) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: n }, (_, t) => [
    {
      task_id: `t${t}`,
      arm: "bare",
      reward: 0.5,
      "mask:a.v1": 0,
      "mask:b.v1": 0,
      ...over(t, "bare"),
    },
    {
      task_id: `t${t}`,
      arm: "masked",
      reward: 0.5 + t / 10,
      "mask:a.v1": t & 1,
      "mask:b.v1": (t >> 1) & 1,
      ...over(t, "masked"),
    },
  ]).flat();
}

/** Runs `gate import table` on the files written into a fresh directory. */
async function importIn(
  files: Readonly<Record<string, string>>,
  args: readonly string[],
): Promise<
  { code: number; stdout: string; stderr: string; dir: string; cleanup(): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-import-border-" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  const ran = await gate(dir, ["import", "table", ...args]);
  return { ...ran, dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** The refusal's lines without the summary, and checks of the summary and that nothing was written. */
function refused(ran: { code: number; stderr: string; dir: string }): string[] {
  equal(ran.code, 2, ran.stderr);
  const lines = ran.stderr.trimEnd().split("\n");
  match(lines.at(-1)!, /^not imported: \d+ issue\(s\); nothing written$/);
  ok(!exists(join(ran.dir, "out")), "nothing written");
  ok(!ran.stderr.includes("    at "), "no stack trace");
  return lines.slice(0, -1);
}

Deno.test("gate import table: ids that are not text are schema_error naming file, row and column", async () => {
  const table = rows(
    2,
    (t, arm) =>
      t === 1 && arm === "masked"
        ? { task_id: { id: 1 }, round: ["r", 1], split: 1.5, checkpoint_id: true, error: { e: 1 } }
        : {},
  );
  const ran = await importIn({ "t.jsonl": jsonl(table) }, ["t.jsonl", "--out", "out"]);
  try {
    deepEqual(refused(ran), [
      'schema_error  t.jsonl:4 task_id  task_id {"id":1} is not text: an id is text, or an integer (read as its digits)',
      "schema_error  t.jsonl:4 split  split 1.5 is not text: an id is text, or an integer (read as its digits)",
      'schema_error  t.jsonl:4 round  round ["r",1] is not text: an id is text, or an integer (read as its digits)',
      "schema_error  t.jsonl:4 checkpoint_id  checkpoint_id true is not text: an id is text, or an integer (read as its digits)",
      'schema_error  t.jsonl:4 error  error {"e":1} is not text',
    ]);
  } finally {
    await ran.cleanup();
  }
  // Integers are ids written as their digits.
  const ints = await importIn({
    "t.jsonl": jsonl(rows(4, (t) => ({ task_id: 100 + t, checkpoint_id: 7 }))),
  }, ["t.jsonl", "--out", "out"]);
  try {
    equal(ints.code, 0, ints.stderr);
    const manifest = JSON.parse(
      await Deno.readTextFile(join(ints.dir, "out/7/bare-val/manifest.json")),
    );
    deepEqual([manifest.tasks, manifest.provenance.checkpoint_id], [
      ["100", "101", "102", "103"],
      "7",
    ]);
  } finally {
    await ints.cleanup();
  }
});

Deno.test({
  name:
    "gate import table: a Parquet task_id that is a struct or a list is schema_error, not [object Object]",
  ignore: ignoreWithout("python3", "import table: Parquet ids"),
  fn: async () => {
    await using dir = await tempDir();
    const script = `
import pyarrow as pa, pyarrow.parquet as pq
n = 4
arm = ["bare", "masked"] * n
reward = [0.5, 0.6] * n
bits = [0, 1] * n
pq.write_table(pa.table({
    "task_id": [{"a": i // 2, "b": "x"} for i in range(2 * n)],
    "arm": arm, "reward": reward, "mask:a.v1": bits}), "struct.parquet")
pq.write_table(pa.table({
    "task_id": [["a", "b"] for i in range(2 * n)],
    "arm": arm, "reward": reward, "mask:a.v1": bits}), "list.parquet")
${EXIT_WITHOUT_TEARDOWN}`;
    const py = await new Deno.Command("python3", { args: ["-c", script], cwd: dir.path }).output();
    equal(py.code, 0, new TextDecoder().decode(py.stderr));
    for (
      const [file, shown] of [["struct.parquet", '{"a":0,"b":"x"}'], [
        "list.parquet",
        '["a","b"]',
      ]] as const
    ) {
      const ran = await gate(dir.path, ["import", "table", file, "--out", "out"]);
      equal(ran.code, 2, ran.stderr);
      const lines = ran.stderr.trimEnd().split("\n");
      equal(
        lines[0],
        `schema_error  ${file}:1 task_id  task_id ${shown} is not text: an id is text, or an integer (read as its digits)`,
      );
      equal(lines.length, 9, ran.stderr); // one per row, and the summary
      ok(!ran.stderr.includes("[object Object]"), ran.stderr);
      ok(!exists(join(dir.path, "out")));
    }
  },
});

/** The first 8 hex digits of a value's SHA-256 (node:crypto, not gatelab's own). */
const hash8 = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 8);

Deno.test("gate import table: distinct rounds, splits and checkpoints never share a directory; names are stable", async () => {
  // Rounds "r 1" and "r-1" (both gate-r-1), "x" and "gate-x" (both gate-x), "R2" and "r2" (one
  // directory on a file system that ignores case), all over one bare run.
  const rounds = ["r 1", "r-1", "x", "gate-x", "R2", "r2"];
  const table = rows(4).flatMap((r) =>
    r.arm === "bare" ? [r] : rounds.map((round) => ({ ...r, round }))
  );
  const want = [
    `gate-r-1-${hash8("r 1")}`,
    `gate-r-1-${hash8("r-1")}`,
    `gate-x-${hash8("x")}`,
    "gate-x",
    `gate-R2-${hash8("R2")}`,
    `gate-r2-${hash8("r2")}`,
  ].map((d) => `checkpoint-unrecorded/${d}`);
  for (const order of ["as written", "reversed"]) {
    const ran = await importIn(
      { "t.jsonl": jsonl(order === "reversed" ? [...table].reverse() : table) },
      ["t.jsonl", "--out", "out"],
    );
    try {
      equal(ran.code, 0, ran.stderr);
      const doc = checkedImport(
        JSON.parse(await Deno.readTextFile(join(ran.dir, "out/import.json"))),
      );
      const gates = doc.gates.map((g: { round: string; dir: string }) => [g.round, g.dir]);
      const byRound = Object.fromEntries(gates);
      deepEqual(rounds.map((r) => byRound[r]), want, order);
      for (const [round, dir] of gates) {
        const g = JSON.parse(await Deno.readTextFile(join(ran.dir, "out", dir, "gate.json")));
        equal(g.gate_id, round, `${dir} holds its own gate`);
      }
      deepEqual(
        doc.renamed.map((r: { value: string }) => r.value).sort(),
        ["R2", "r 1", "r-1", "r2", "x"],
      );
      ok(
        ran.stdout.includes(
          `  renamed  round "x": out/${want[2]} (another value also makes gate-x)\n`,
        ),
      );
    } finally {
      await ran.cleanup();
    }
  }
  // Splits "val 1" and "val-1": two bare runs of one checkpoint; "val-1" keeps its own name.
  const splits = [
    ...rows(4, () => ({ split: "val 1", round: "a" })),
    ...rows(4, () => ({ split: "val-1", round: "b" })),
  ]
    .map((r) => r.arm === "bare" ? { ...r, round: null } : r);
  const ran = await importIn({ "t.jsonl": jsonl(splits) }, ["t.jsonl", "--out", "out"]);
  try {
    equal(ran.code, 0, ran.stderr);
    const doc = checkedImport(
      JSON.parse(await Deno.readTextFile(join(ran.dir, "out/import.json"))),
    );
    deepEqual(doc.runs.map((r: { split: string; dir: string }) => [r.split, r.dir]), [
      ["val 1", `checkpoint-unrecorded/bare-val-1-${hash8("val 1")}`],
      ["val-1", "checkpoint-unrecorded/bare-val-1"],
    ]);
    deepEqual(
      doc.gates.map((
        g: { round: string; dir: string; bare_run_dir: string },
      ) => [g.round, g.dir, g.bare_run_dir]),
      [
        [
          "a",
          `checkpoint-unrecorded/gate-a-val-1-${hash8("val 1")}`,
          `checkpoint-unrecorded/bare-val-1-${hash8("val 1")}`,
        ],
        ["b", "checkpoint-unrecorded/gate-b-val-1", "checkpoint-unrecorded/bare-val-1"],
      ],
    );
    for (const r of doc.runs) {
      const m = JSON.parse(await Deno.readTextFile(join(ran.dir, "out", r.dir, "manifest.json")));
      equal(m.split, r.split);
    }
  } finally {
    await ran.cleanup();
  }
});

Deno.test("gate import table: a first import without a mapping names --map, the keys it needs and the docs", async () => {
  const csv = ["problem,condition,score,q"];
  for (let t = 0; t < 4; t++) csv.push(`p${t},base,0.5,0`, `p${t},skill,0.${t + 5},${t & 1}`);
  const ran = await importIn({ "t.csv": csv.join("\n") + "\n" }, ["t.csv", "--out", "out"]);
  try {
    deepEqual(refused(ran), [
      'schema_error  t.csv task_id  required column "task_id" is missing',
      'schema_error  t.csv arm  required column "arm" is missing',
      'schema_error  t.csv reward  required column "reward" (the primary metric) is missing',
      'schema_error  t.csv injected  no mask: give one 0/1 column per version named "mask:<version_id>", or a list column "injected" (or map them)',
      'hint: a table with other column names imports through a mapping: --map <file> with columns.task_id, columns.arm, columns.reward (or primary), columns.mask and columns.injected set to them (docs/import.md, "The mapping file")',
    ]);
    // The keys the hint names are the mapping that imports the table.
    await Deno.writeTextFile(
      join(ran.dir, "m.json"),
      JSON.stringify({
        format: "gatelab.import-map/v1",
        columns: { task_id: "problem", arm: "condition", reward: "score", mask: { "q.v1": "q" } },
        arm_values: { bare: "base", masked: "skill" },
      }),
    );
    const mapped = await gate(ran.dir, [
      "import",
      "table",
      "t.csv",
      "--map",
      "m.json",
      "--out",
      "out",
    ]);
    equal(mapped.code, 0, mapped.stderr);
    match(mapped.stdout, /^ok: imported 8 rows from 1 file\(s\)/m);
  } finally {
    await ran.cleanup();
  }
});

Deno.test("gate import table: an import whose gates would not validate is refused with validation's codes, nothing written", async () => {
  const versions = (extra: Record<string, unknown>) => ({
    format: "gatelab.import-map/v1",
    versions: { "a.v1": {}, "b.v1": {}, ...extra },
  });
  const cases: [string, Record<string, unknown>[], unknown, string[]][] = [
    ["versions naming a version the table never uses", rows(), versions({ "z.v1": {} }), [
      "not_identifiable  out/checkpoint-unrecorded/gate/gate.json z.v1  version z.v1 is never present in 4 rows; its coefficient cannot be estimated",
      "not_identifiable  out/checkpoint-unrecorded/gate/gate.json z.v1  design matrix has rank 2 of 3 columns (4 rows): z.v1 is never present",
    ]],
    [
      "an old version without its new",
      rows(),
      { format: "gatelab.import-map/v1", versions: { "a.v1": { role: "old" }, "b.v1": {} } },
      [
        'family_invalid  out/checkpoint-unrecorded/gate/gate.json slots.0  REWRITE family "a" is malformed: no new version (need at least 1)',
      ],
    ],
    [
      "a reward of 1e308, named by its source row",
      rows(4, (t, arm) => (t === 2 && arm === "masked" ? { reward: 1e308 } : {})),
      undefined,
      [
        "reward_out_of_range  t.jsonl:6 reward [val/t2/0]  reward is 1e+308; magnitudes above 1e+100 cannot be analysed (their squares and sums overflow) (line 3 of checkpoint-unrecorded/gate/traces.jsonl)",
      ],
    ],
  ];
  for (const [name, table, mapping, want] of cases) {
    const files: Record<string, string> = { "t.jsonl": jsonl(table) };
    if (mapping !== undefined) files["m.json"] = JSON.stringify(mapping);
    const ran = await importIn(files, [
      "t.jsonl",
      ...(mapping === undefined ? [] : ["--map", "m.json"]),
      "--out",
      "out",
    ]);
    try {
      deepEqual(refused(ran), want, name);
      deepEqual(
        [...Deno.readDirSync(ran.dir)].map((e) => e.name).sort(),
        Object.keys(files).sort(),
      );
    } finally {
      await ran.cleanup();
    }
  }
});

Deno.test("gate import table: job seeds mapped without provenance.send_seed are said to be not compared, and differences are a warning with their count", async () => {
  // Seeds in both arms; the masked seed of task 1 is off by one.
  const table = rows(
    4,
    (t, arm) => ({ job_seed: 1000 + t + (t === 1 && arm === "masked" ? 1 : 0) }),
  );
  const said =
    "job seeds are recorded but not compared: set provenance.send_seed in the mapping if the harness sent them";
  const ran = await importIn({ "t.jsonl": jsonl(table) }, ["t.jsonl", "--out", "out"]);
  try {
    equal(ran.code, 0, ran.stderr);
    equal(
      ran.stdout.trim().split("\n").at(-1),
      `ok: imported 8 rows from 1 file(s): 1 bare run(s), 1 gate(s); 14 field(s) not recorded (listed in out/import.json); ${said}; wrote out/`,
    );
    const warning =
      `job seeds differ in 1 of 4 episode(s) (first: bare 1001 at line 2, masked 1002); ${said}`;
    equal(
      ran.stderr.trim(),
      `seed_mismatch (warning)  t.jsonl:4 job_seed [val/t1/0]  ${warning} (line 2 of checkpoint-unrecorded/gate/traces.jsonl)`,
    );
    const validated = await gate(ran.dir, ["validate", "out", "--out", "v"]);
    equal(validated.code, 0, validated.stderr);
    ok(
      validated.stderr.includes(
        `seed_mismatch (warning)  out/checkpoint-unrecorded/gate/traces.jsonl:2 job_seed [val/t1/0]  ${warning}\n`,
      ),
      validated.stderr,
    );
    const analysed = await gate(ran.dir, ["analyze", "out", "--out", "a", "--bootstrap", "0"]);
    equal(analysed.code, 0, analysed.stderr);
    ok(
      analysed.stderr.includes(
        `seed_mismatch (warning)  out/checkpoint-unrecorded/gate/traces.jsonl:2`,
      ),
      analysed.stderr,
    );
    const unverifiable = analysed.stdout.split("\n").find((l) => l.startsWith("unverifiable: "));
    ok(
      unverifiable?.endsWith(
        `; ${said}; listed as provenance_unrecorded warnings in a/validation.json`,
      ),
      unverifiable,
    );
    // Declared sent, the same seeds are compared: the off-by-one seed refuses the import.
    await Deno.writeTextFile(
      join(ran.dir, "m.json"),
      JSON.stringify({ format: "gatelab.import-map/v1", provenance: { send_seed: true } }),
    );
    const sent = await gate(ran.dir, [
      "import",
      "table",
      "t.jsonl",
      "--map",
      "m.json",
      "--out",
      "sent",
    ]);
    equal(sent.code, 2, sent.stderr);
    match(
      sent.stderr,
      /^seed_mismatch {2}t\.jsonl:4 job_seed \[val\/t1\/0\] {2}job seeds differ with send_seed on: bare 1001 \(line 2\), masked 1002 \(line 2 of checkpoint-unrecorded\/gate\/traces\.jsonl\)$/m,
    );
  } finally {
    await ran.cleanup();
  }
});
