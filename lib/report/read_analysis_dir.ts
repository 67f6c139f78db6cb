/**
 * Reads the output directory of a gatelab analysis (and/or study) for
 * reporting: the files it finds, parsed and checked loosely, with their
 * sha256 so a report records exactly what it was made from.
 *
 * @module
 */
import { join } from "node:path";
import type { z } from "npm:zod@4.6.7";
import { type Issue, type Result, sha256Hex } from "../core/mod.ts";
import {
  checkOutput,
  type ComparisonJson,
  ComparisonSchema,
  type ContributionsJson,
  ContributionsSchema,
  contributionsTaskRows,
  type HeldoutJson,
  HeldoutSchema,
  type HistoryJson,
  HistorySchema,
  type LadderResultJson,
  LadderResultSchema,
  type PowerJson,
  PowerSchema,
  type RecipeComparisonJson,
  RecipeComparisonSchema,
  type SelectionJson,
  SelectionSchema,
  type SequentialJson,
  SequentialSchema,
  type StudyJson,
  StudySchema,
  type ValidationJson,
  ValidationSchema,
} from "../contract/outputs/mod.ts";
import { auditCommand } from "../core/audit_command.ts";

/** What the report records of one input file besides its hash. */
export interface InputProvenance {
  /** `generator.command` (and tool, version) of the file, when it has one. */
  readonly generator: string | null;
  /** The seed of its random numbers (bootstrap, splits, simulation), when any. */
  readonly seed: number | null;
  /** Bootstrap draws or simulated gates, when any. */
  readonly draws: number | null;
}

/** What an analysis directory holds. Every file is optional; at least one must exist. */
export interface AnalysisOutputs {
  readonly dir: string;
  readonly contributions: ContributionsJson | null;
  readonly selection: SelectionJson | null;
  readonly study: StudyJson | null;
  readonly heldout: HeldoutJson | null;
  /** comparison.json of `gate compare` (Gate B). */
  readonly comparison: ComparisonJson | null;
  /** power.json of `gate plan-power`. */
  readonly power: PowerJson | null;
  /** history.json of `gate history` (absent in outputs made before it existed). */
  readonly history?: HistoryJson | null;
  /** recipe_comparison.json of `gate reward --groups`. */
  readonly reward?: RecipeComparisonJson | null;
  /** sequential.json of `gate sequential`. */
  readonly sequential?: SequentialJson | null;
  /** ladder_result.json of `gate ladder`. */
  readonly ladder?: LadderResultJson | null;
  /** validation.json of `gate ledger-audit` or `gate firewall` (other commands' is not read). */
  readonly audit?: ValidationJson | null;
  /** File name to sha256 of its bytes, in name order. */
  readonly inputs: Readonly<Record<string, string>>;
  /** File name to its generator, seed and draws. */
  readonly provenance?: Readonly<Record<string, InputProvenance>>;
}

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

async function readOptional(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
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

  /** Reads one file; with `when`, a file that does not parse or fails `when` is silently not read. */
  async function load<S extends z.ZodType>(
    name: string,
    schema: S,
    when?: (value: unknown) => boolean,
  ): Promise<z.output<S> | null> {
    const file = join(dir, name);
    let bytes: Uint8Array | null;
    try {
      bytes = await readOptional(file);
    } catch (error) {
      issues.push({
        code: "io_error",
        message: `Cannot read file: ${(error as Error).message}`,
        file,
      });
      return null;
    }
    if (bytes === null) return null;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      if (when) return null;
      issues.push({
        code: "parse_error",
        message: `Cannot parse JSON: ${(error as Error).message}`,
        file,
      });
      return null;
    }
    if (when && !when(value)) return null;
    inputs[name] = sha256Hex(bytes);
    provenance[name] = provenanceOf(value);
    const parsed = checkOutput(schema, value, file);
    if (!parsed.ok) {
      issues.push(...parsed.issues);
      return null;
    }
    return parsed.value;
  }

  const read = await load("contributions.json", ContributionsSchema);
  // The per-task rows (the delta figure): its own (an older gatelab) or its tasks table's,
  // checked against the sha256 it recorded.
  const rows = read === null ? null : await contributionsTaskRows(read, dir);
  if (rows !== null && !rows.ok) issues.push(rows.issue);
  const contributions = read === null || rows === null || !rows.ok
    ? read
    : { ...read, tasks: rows.rows };
  const selection = await load("selection.json", SelectionSchema);
  const study = await load("study.json", StudySchema);
  const heldout = await load("heldout.json", HeldoutSchema);
  const comparison = await load("comparison.json", ComparisonSchema);
  const power = await load("power.json", PowerSchema);
  const history = await load("history.json", HistorySchema);
  const reward = await load("recipe_comparison.json", RecipeComparisonSchema);
  const sequential = await load("sequential.json", SequentialSchema);
  const ladder = await load("ladder_result.json", LadderResultSchema);
  const audit = await load("validation.json", ValidationSchema, (v) => auditCommand(v) !== null);
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
      contributions,
      selection,
      study,
      heldout,
      comparison,
      power,
      history,
      reward,
      sequential,
      ladder,
      audit,
      inputs: sortedInputs,
      provenance: sortedProvenance,
    },
    issues: [],
  };
}
