/**
 * `deno task bench --import [--rows 200000] [--repeats 1]`: `gate import
 * table` of a generated flat table (bench/gen_import_table.py: rows/2 tasks,
 * a bare and a masked row each, 14 mask columns, 4 components) from Parquet
 * and from CSV, as fresh processes started as the `gate` task starts them,
 * side by side with native DuckDB in Python reading the same file and
 * writing it as JSON Lines (bench/import_duckdb.py). Best wall time of
 * `--repeats` runs each; the ratio is gatelab / DuckDB. A benchmark, not a
 * test: nothing is asserted, but each format's line ends with the SHA-256 of
 * the contract files gatelab wrote (every file but import.json, which names
 * the source and the command), the same for Parquet and CSV, so runs before
 * and after a change to the importer show whether any output byte moved.
 *
 * @module
 */
import { join } from "node:path";
import { gateArgs } from "./_gate.ts";
import { wall } from "./_wall.ts";
import { sha256Hex } from "../lib/core/sha256.ts";

/** SHA-256 over the relative paths and bytes of every file under `dir` but import.json. */
async function outputDigest(dir: string): Promise<string> {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  const walk = async (rel: string) => {
    const names = [];
    for await (const e of Deno.readDir(join(dir, rel))) names.push(e);
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of names) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (path !== "import.json") {
        const bytes = await Deno.readFile(join(dir, path));
        parts.push(encoder.encode(`${path}\0${bytes.length}\0`), bytes);
      }
    }
  };
  await walk("");
  return sha256Hex(...parts);
}

/** Runs the import benchmark and prints one line per format. */
export async function runImport(options: { rows: number; repeats: number }): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-bench-import-" });
  try {
    await wall("python3", ["bench/gen_import_table.py", String(options.rows), dir]);
    console.log(
      `gate import table, ${
        options.rows.toLocaleString("en-US")
      } rows (best of ${options.repeats}, wall, fresh processes)`,
    );
    for (const format of ["parquet", "csv"]) {
      const table = join(dir, `table.${format}`);
      const ours: number[] = [], duck: number[] = [];
      let digest = "";
      for (let r = 0; r < options.repeats; r++) {
        const out = join(dir, `out-${format}`);
        ours.push(
          await wall("deno", gateArgs(["import", "table", table, "--out", out, "--quiet"])),
        );
        duck.push(
          await wall("python3", [
            "bench/import_duckdb.py",
            table,
            join(dir, `duck-${format}.jsonl`),
          ]),
        );
        digest = await outputDigest(out);
      }
      const a = Math.min(...ours), b = Math.min(...duck);
      console.log(
        `  ${format.padEnd(8)} gatelab ${(a / 1000).toFixed(2)} s   DuckDB (Python) ${
          (b / 1000).toFixed(2)
        } s   ratio ${(a / b).toFixed(2)}   outputs sha256 ${digest.slice(0, 16)}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
