/**
 * The steps of `loadIntoDuckDb` without DuckDB: the run and gate tables
 * built from in-memory runs and plans (lib/sql/run_tables.ts,
 * lib/sql/gate_tables.ts) and their Arrow IPC streams (lib/sql/arrow_ipc.ts).
 */
import { deepEqual } from "node:assert/strict";
import { tableFromIPC } from "apache-arrow";
import { runTables } from "../lib/sql/run_tables.ts";
import { gateTables } from "../lib/sql/gate_tables.ts";
import { arrowIpcStream } from "../lib/sql/arrow_ipc.ts";
import { SQL_TABLES, type SqlTableData } from "../lib/sql/sql_schema.ts";
import { attempt, manifest } from "./validate_units.ts";

const column = (t: SqlTableData, name: string) => t.columns.find((c) => c.name === name)!.values;

Deno.test("sql steps: run tables hold one row per run, attempt, reward component and injected version", () => {
  const run = {
    dir: "runs/m",
    manifest: manifest("masked", { tasks: 2 }, (m) => {
      m.run_id = "m1";
    }),
    sha256: "ab".repeat(32),
    attempts: [
      attempt("t000", 1, { status: "failed", reward: null, error: "timeout", injected: ["c1"] }),
      attempt("t000", 2, {
        attempt: 1,
        injected: ["c1", "c2"],
        tokens: { prompt: 10, completion: 3 },
      }),
      attempt("t001", 3, { reward: 0.25 }),
    ],
  };
  const t = runTables([run]);
  deepEqual(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.rows])), {
    runs: 1,
    attempts: 3,
    rewards: 4,
    injected: 3,
  });
  for (const [name, data] of Object.entries(t)) {
    deepEqual(data.columns.map((c) => c.name), SQL_TABLES[name]);
  }
  deepEqual(
    ["run_id", "arm", "n_tasks", "send_seed", "environment_version", "skill_bank"].map((c) =>
      column(t.runs, c)[0]
    ),
    ["m1", "masked", 2, true, "1.0.0", "fixture-bank"],
  );
  deepEqual(column(t.attempts, "reward"), [null, 0.5, 0.25]);
  deepEqual(column(t.attempts, "prompt_tokens"), [null, 10, null]);
  deepEqual(column(t.attempts, "n_injected"), [1, 2, 0]);
  deepEqual(column(t.attempts, "error"), ["timeout", null, null]);
  deepEqual(column(t.rewards, "component"), ["r_strict", "r_success", "r_strict", "r_success"]);
  deepEqual(column(t.rewards, "value"), [0.5, 0.35, 0.25, 0.225]);
  deepEqual(column(t.injected, "version_id"), ["c1", "c1", "c2"]);
  deepEqual(column(t.injected, "attempt"), [0, 1, 1]);
});

Deno.test("sql steps: gate tables number versions in gate.json order and keep absent slots as NULL", () => {
  const plan = {
    format: "gatelab.gate/v1" as const,
    gate_id: "g1",
    stage: "online" as const,
    bare_run_dir: "../bare",
    estimator: "paired_delta_ols_no_intercept" as const,
    mask_seed: 4,
    p_present: 0.5,
    budget_k: 1,
    slots: [
      { slot_id: "s", versions: [{ version_id: "c", chunk_id: "k", role: "add" as const }] },
      {
        slot_id: "f",
        versions: [
          { version_id: "o", chunk_id: "k1", role: "old" as const },
          { version_id: "n", chunk_id: "k2", role: "new" as const },
        ],
      },
    ],
  };
  const assignments = [
    { split: "val", task_id: "t0", sample_id: 0, slots: { s: "c", f: null } },
    { split: "val", task_id: "t1", sample_id: 0, slots: { s: null, f: "n" } },
  ];
  const t = gateTables([{ dir: "gates/g1", plan, assignments, masked_run_id: "m1" }]);
  deepEqual(
    t.gates.columns.map((c) => c.values[0]),
    ["g1", "gates/g1", "online", 1, 4, 0.5, "../bare", "m1"],
  );
  deepEqual(column(t.versions, "version_id"), ["c", "o", "n"]);
  deepEqual(column(t.versions, "column_index"), [0, 1, 2]);
  deepEqual(column(t.versions, "role"), ["add", "old", "new"]);
  deepEqual(column(t.assignments, "slot_id"), ["s", "f", "s", "f"]);
  deepEqual(column(t.assignments, "version_id"), ["c", null, null, "n"]);
});

Deno.test("sql steps: the Arrow stream keeps names, types, values and NULLs", async () => {
  const table = tableFromIPC(
    await arrowIpcStream({
      rows: 2,
      columns: [
        { name: "s", kind: "str", values: ["a", null] },
        { name: "x", kind: "f64", values: [0.5, null] },
        { name: "i", kind: "i32", values: [null, 7] },
        { name: "b", kind: "bool", values: [true, null] },
      ],
    }),
  );
  deepEqual(table.schema.fields.map((f) => `${f.name}:${f.type}`), [
    "s:Utf8",
    "x:Float64",
    "i:Int32",
    "b:Bool",
  ]);
  deepEqual(table.toArray().map((r) => r.toJSON()), [
    { s: "a", x: 0.5, i: null, b: true },
    { s: null, x: null, i: 7, b: null },
  ]);
});
