/**
 * Reads the output directory of a gatelab analysis (and/or study) for
 * reporting: the files it finds, parsed and checked loosely, with their
 * sha256 so a report records exactly what it was made from.
 *
 * @module
 */
import { type Issue, type Result, sha256Hex } from "../core/mod.ts";
import type { AnalysisOutputs, InputProvenance } from "./analysis_outputs.ts";
import { BUNDLES } from "./bundles.ts";

export type { AnalysisOutputs, InputProvenance };

const record = (x: unknown): Record<string, unknown> =>
  typeof x === "object" && x !== null ? x as Record<string, unknown> : {};
const numberOrNull = (x: unknown): number | null => typeof x === "number" ? x : null;

/**
 * The generator, seed and draws an output file records (wherever its
 * command puts them: `bootstrap`, `plan`, `simulation`).
 *
 * @example
 * ```ts
 * import { provenanceOf } from "./read_analysis_dir.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(provenanceOf({ bootstrap: { draws: 10, seed: 3 }, generator: { tool: "gatelab", version: "1", command: "gate x" } }),
 *   { generator: "gatelab 1: gate x", seed: 3, draws: 10 });
 * ```
 */
export function provenanceOf(value: unknown): InputProvenance {
  const v = record(value);
  const g = record(v["generator"]);
  const places = [v["bootstrap"], v["plan"], v["simulation"], v].map(record);
  const first = (key: string) =>
    places.map((p) => numberOrNull(p[key])).find((x) => x !== null) ?? null;
  return {
    generator: typeof g["command"] === "string"
      ? `${String(g["tool"] ?? "")} ${String(g["version"] ?? "")}: ${g["command"]}`.trim()
      : null,
    seed: first("seed"),
    draws: first("draws") ?? first("sims"),
  };
}

/**
 * Reads `contributions.json`, `selection.json`, `study.json`, `heldout.json`,
 * `comparison.json`, `power.json`, `history.json`, `recipe_comparison.json`,
 * `sequential.json`, `ladder_result.json` and, when `gate ledger-audit` or
 * `gate firewall` wrote it, `validation.json` from `dir`. Each file found must match
 * its section of docs/FORMAT.md or its command's documentation (the fields
 * the report reads are checked; unknown fields are accepted).
 *
 * @param dir Output directory of `gate analyze`, `gate study`, `gate heldout`,
 *   `gate compare`, `gate plan-power`, `gate history`, `gate reward`,
 *   `gate sequential` and/or `gate ladder`.
 * @returns The outputs, or issues: `io_error` when the directory cannot be
 *   read or holds none of the files, `parse_error` for invalid JSON,
 *   `output_schema_mismatch` (with file and field path) for a wrong shape.
 *
 * @example
 * ```ts
 * import { readAnalysisDir } from "./read_analysis_dir.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const r = await readAnalysisDir(dir);
 * deepEqual(r.ok ? [] : r.issues.map((i) => i.code), ["io_error"]);
 * await Deno.remove(dir);
 * ```
 */
export async function readAnalysisDir(dir: string): Promise<Result<AnalysisOutputs>> {
  const issues: Issue[] = [];
  const inputs: Record<string, string> = {};
  const provenance: Record<string, InputProvenance> = {};
  try {
    const info = await Deno.stat(dir);
    if (!info.isDirectory) {
      return {
        ok: false,
        issues: [{
          code: "io_error",
          message: "Cannot read analysis outputs: not a directory",
          file: dir,
        }],
      };
    }
  } catch (error) {
    return {
      ok: false,
      issues: [{
        code: "io_error",
        message: `Cannot read analysis outputs: ${(error as Error).message}`,
        file: dir,
      }],
    };
  }

  const documents: Partial<AnalysisOutputs>[] = [];
  for (const { bundle, slot } of BUNDLES) {
    if (slot === undefined) continue;
    const read = await bundle.read(dir);
    issues.push(...read.issues);
    for (const file of read.files) {
      inputs[file.name] = sha256Hex(file.bytes);
      provenance[file.name] = provenanceOf(file.raw);
    }
    if (read.doc !== null) documents.push(slot.set(read.doc));
  }
  if (issues.length > 0) return { ok: false, issues };
  if (Object.keys(inputs).length === 0) {
    return {
      ok: false,
      issues: [{
        code: "io_error",
        message:
          "Cannot report on directory: it holds none of contributions.json, selection.json, study.json, heldout.json, comparison.json, power.json, history.json, recipe_comparison.json, sequential.json, ladder_result.json, nor the validation.json of gate ledger-audit or gate firewall",
        file: dir,
      }],
    };
  }
  const sortedInputs: Record<string, string> = {};
  const sortedProvenance: Record<string, InputProvenance> = {};
  for (const name of Object.keys(inputs).sort()) {
    sortedInputs[name] = inputs[name]!;
    sortedProvenance[name] = provenance[name]!;
  }
  return {
    ok: true,
    value: {
      dir,
      // Every registered document, null where the directory has none.
      ...Object.assign({}, ...BUNDLES.map((b) => b.slot?.set(null)), ...documents),
      inputs: sortedInputs,
      provenance: sortedProvenance,
    },
    issues: [],
  };
}
