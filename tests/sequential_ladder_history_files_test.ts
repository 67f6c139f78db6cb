/**
 * The file bundles of `gate sequential`, `gate ladder` and `gate history`
 * (lib/<stage>/files.ts): called on the documents the demo's commands wrote
 * (tests/demo_outputs.ts), without writing anything, each gives back every
 * file of the command's output directory byte for byte (PNG and PDF left
 * out: they need rsvg-convert), so the command writes exactly its stage's
 * `files(doc)` and a document read back reproduces its own JSON, tables,
 * figures and tidy tables. Names and a few cells are checked against the
 * demo's known values (ladder counting: accept after block 1; sequential:
 * Gate A's 400 rows; history: the lineage warnings of --allow-lineage-gaps).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { runScope } from "../lib/table/run_scope.ts";
import { sequentialFiles } from "../lib/sequential/files.ts";
import { ladderFiles } from "../lib/ladder/files.ts";
import { historyFiles } from "../lib/history/files.ts";
import { HistorySchema, LadderResultSchema, SequentialSchema } from "../lib/contract/mod.ts";
import { demoOutputs } from "./demo_outputs.ts";
import { sameAsWritten } from "./file_bytes.ts";

/** PNG and PDF copies depend on the converter on PATH; the files tests leave them out. */
const skipImages = (name: string) => name.endsWith(".png") || name.endsWith(".pdf");

/** A document as its command wrote it, after its schema accepted it (keys in the file's order). */
async function readDocument(path: string, schema: { parse(value: unknown): unknown }) {
  const doc = await readJson(path);
  schema.parse(doc);
  return doc;
}

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("sequentialFiles: the demo's sequential-a, every file byte for byte, nothing written", async () => {
  const dir = `${await demoOutputs()}/sequential-a`;
  const doc = await readDocument(`${dir}/sequential.json`, SequentialSchema);
  const files = await sequentialFiles(doc, {
    validation: await readJson(`${dir}/validation.json`),
    scope: runScope(dir),
    png: false,
    pdf: false,
  });
  const texts = await sameAsWritten(files, dir, skipImages);
  equal(doc.rows, 400);
  // One table, two figures (svg and tex) per metric; the seven metrics of the demo.
  const metrics = Object.keys(doc.metrics);
  equal(metrics.length, 7);
  equal(Object.keys(files).filter((n) => n.endsWith(".svg")).length, 2 * metrics.length);
  ok(texts["sequential.tex"]!.includes("tab:sequential-a:sequential-reward"));
  ok(texts["prefixes.csv"]!.startsWith("metric,n,version_id,estimate,se,"));
});

Deno.test("ladderFiles: the demo's three ladder gates, every file byte for byte", async () => {
  for (const type of ["counting", "temporal-order", "spatial-relation"]) {
    const dir = `${await demoOutputs()}/ladder-${type}`;
    const doc = await readDocument(`${dir}/ladder_result.json`, LadderResultSchema);
    const files = await ladderFiles(doc, {
      validation: await readJson(`${dir}/validation.json`),
      scope: runScope(dir),
      png: false,
      pdf: false,
    });
    const texts = await sameAsWritten(files, dir, skipImages);
    deepEqual(Object.keys(files), [
      "validation.json",
      "ladder_result.json",
      "ladder.md",
      "ladder.tex",
      "blocks.csv",
      "blocks.parquet",
      `ladder_${type}.svg`,
      `ladder_${type}.tex`,
    ]);
    if (type === "counting") {
      ok(texts["ladder.md"]!.includes("exit accept after block 1"));
      ok(texts["ladder.md"]!.includes("| 0 | 5 | 0 | 2 | 1 | 8 | 15.64 | 0.11 |"));
    }
  }
});

Deno.test("historyFiles: the demo's history, every file byte for byte, the lineage warnings in validation.json", async () => {
  const dir = `${await demoOutputs()}/history`;
  const doc = await readDocument(`${dir}/history.json`, HistorySchema);
  const validation = await readJson(`${dir}/validation.json`);
  const files = await historyFiles(doc, {
    validation,
    scope: runScope(dir),
    png: false,
    pdf: false,
  });
  const texts = await sameAsWritten(files, dir, skipImages);
  const written = JSON.parse(texts["validation.json"]!);
  equal(written.ok, true);
  ok(
    written.issues.length > 0 &&
      written.issues.every((i: { severity?: string }) => i.severity === "warning"),
  );
  deepEqual(doc.lineage.gaps_allowed, true);
  equal(doc.steps.length, 3);
});
