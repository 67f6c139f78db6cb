/**
 * `gate sql`'s faster start: only the tables a query names are built and
 * loaded (`tablesNamedIn`, `loadIntoDuckDb`'s `only`, `readSqlSources`'s
 * `only`), and `--cache` reads runs through the run cache (a miss stores
 * them, a hit gives the same result).
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { openDuckDb } from "../lib/sql/engine.ts";
import { loadIntoDuckDb } from "../lib/sql/load_tables.ts";
import { readSqlSources } from "../lib/sql/read_sources.ts";
import { sqlTables } from "../lib/sql/tables.ts";
import { tablesNamedIn } from "../lib/sql/named_tables.ts";
import { tempDir } from "./fixtures.ts";

const GATE = "data/demo/ckpt-a/gate-a";

Deno.test("only the tables a query names are read, built and loaded", async () => {
  const only = tablesNamedIn("select a.arm, count(*) from attempts a join runs r using (run_id)");
  deepEqual([...only], ["runs", "attempts"]);
  const sources = await readSqlSources([GATE], { only });
  // The gate's plan is read (it names the bare run), its assignments are not.
  deepEqual([sources.runs.length, sources.gates.length, sources.gates[0]!.assignments.length], [
    2,
    1,
    0,
  ]);
  const db = await openDuckDb();
  try {
    deepEqual(await loadIntoDuckDb(db, sources, { only }), { runs: 2, attempts: 806 });
    deepEqual((await sqlTables(db)).map((t) => [t.name, t.rows]), [["attempts", 806], ["runs", 2]]);
  } finally {
    await db.close();
  }
  // Nothing named: everything, so `show tables` still lists what there is.
  deepEqual(tablesNamedIn("show tables").has("assignments"), true);
  // Output tables only: runs and gates are not read at all.
  const none = await readSqlSources([GATE], { only: new Set(["coefficients"]) });
  deepEqual([none.runs.length, none.gates.length], [0, 0]);
});

Deno.test("gate sql --cache: a miss stores the runs, a hit gives the same result", async () => {
  await using dir = await tempDir();
  const cache = join(dir.path, "cache");
  const query = "select count(*)::int as n, round(sum(reward), 6) as s from attempts";
  const outputs: string[] = [];
  const { log } = console;
  console.log = (...a: unknown[]) => outputs.push(a.join(" "));
  try {
    deepEqual(await main(["sql", GATE, "--cache", cache, "--query", query]), 0);
    const entries = [...Deno.readDirSync(join(cache, "runs"))].map((e) => e.name);
    deepEqual(entries.length, 2);
    ok(entries.every((e) => e.endsWith(".run")));
    deepEqual(await main(["sql", GATE, "--cache", cache, "--query", query]), 0);
    deepEqual(await main(["sql", GATE, "--query", query]), 0);
  } finally {
    console.log = log;
  }
  deepEqual(outputs.length, 3);
  deepEqual(new Set(outputs).size, 1, outputs.join("\n"));
  ok(outputs[0]!.includes("806"), outputs[0]);
});
