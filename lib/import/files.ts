/**
 * The files `gate import table` and `gate import inspect` write into
 * `--out`: the contract directories the import built and import.json.
 *
 * @module
 */
import { toJsonText } from "../core/atomic_write.ts";
import type { ImportBuild } from "./build.ts";
import type { ImportDocument } from "./document.ts";

/**
 * The bytes of every file of an import: each run and gate directory's
 * manifest.json, traces.jsonl, gate.json and assignments.jsonl (as the
 * build made them), then import.json. Pure: nothing is written; the
 * command writes them through its shared end (lib/cli/finish.ts).
 *
 * @param result What `importTables` or `importInspectLogs` returned.
 * @returns File name (relative to `--out`) to contents (a string, or pieces of text that
 *   together are the file).
 *
 * @example Four tasks of a JSON Lines table, two versions
 * ```ts
 * import { importFiles } from "./files.ts";
 * import { importTables } from "./import_tables.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const rows = [0, 1, 2, 3].flatMap((t) => [
 *   { task_id: `t${t}`, arm: "bare", reward: 0.5, "mask:a.v1": 0, "mask:b.v1": 0 },
 *   { task_id: `t${t}`, arm: "masked", reward: 0.5 + t / 10, "mask:a.v1": t & 1, "mask:b.v1": (t >> 1) & 1 },
 * ]);
 * await Deno.writeTextFile(`${dir}/t.jsonl`, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
 * const result = await importTables([`${dir}/t.jsonl`], { command: "gate import table t.jsonl --out o" });
 * await Deno.remove(dir, { recursive: true });
 * if (!result.ok) throw new Error(result.issues[0]!.message);
 * const files = importFiles(result.value);
 * deepEqual(Object.keys(files), [
 *   "checkpoint-unrecorded/bare-val/manifest.json", "checkpoint-unrecorded/bare-val/traces.jsonl",
 *   "checkpoint-unrecorded/gate/gate.json", "checkpoint-unrecorded/gate/assignments.jsonl",
 *   "checkpoint-unrecorded/gate/manifest.json", "checkpoint-unrecorded/gate/traces.jsonl",
 *   "import.json",
 * ]);
 * // Lines come in pieces of many lines each: join and split them to read one.
 * const masked = (files["checkpoint-unrecorded/gate/traces.jsonl"] as readonly string[]).join("").split("\n");
 * ok(masked[3]!.includes('"task_id":"t3","sample_id":0,"attempt":0,"status":"completed","reward":0.8,'));
 * ok(masked[3]!.includes('"injected":["a.v1","b.v1"]'));
 * ok(String(files["import.json"]).startsWith('{\n  "format": "gatelab.import/v1",\n  "kind": "table",'));
 * ```
 */
export function importFiles(result: {
  readonly build: Pick<ImportBuild, "files">;
  readonly document: ImportDocument;
}): Record<string, string | readonly string[]> {
  return { ...result.build.files, "import.json": toJsonText(result.document) };
}
