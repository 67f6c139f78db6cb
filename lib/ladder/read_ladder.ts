/**
 * Reads a ladder gate directory (`ladder.json`, `units.jsonl`) and an
 * optional baseline file, collecting every issue.
 *
 * @module
 */
import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "../load/jsonl.ts";
import { readJsonFile } from "../load/read_run.ts";
import {
  type BaselineLine,
  BaselineLineSchema,
  type LadderSpec,
  LadderSpecSchema,
  type UnitLine,
  UnitLineSchema,
} from "./schema.ts";

/** An input file as recorded in outputs. */
export interface LadderInput {
  readonly file: string;
  readonly kind: "ladder" | "units" | "baseline";
  readonly sha256: string | null;
}

/** What {@linkcode readLadder} found. */
export interface LadderRead {
  readonly spec: LadderSpec | null;
  readonly units: UnitLine[];
  readonly baseline: BaselineLine[] | null;
  readonly issues: Issue[];
  readonly inputs: LadderInput[];
}

/**
 * Reads and schema-checks a ladder gate directory and, when given, a
 * baseline units file. An `arm` other than `base` or `cand` is `arm_unknown`.
 *
 * @param dir The ladder directory.
 * @param prefill Path of a baseline units.jsonl, or undefined.
 * @returns Spec, unit lines, baseline lines, issues and inputs with sha256.
 */
export async function readLadder(dir: string, prefill?: string): Promise<LadderRead> {
  const issues: Issue[] = [];
  const inputs: LadderInput[] = [];
  const specFile = join(dir, "ladder.json");
  let spec: LadderSpec | null = null;
  const json = await readJsonFile(specFile);
  if (json.ok) {
    inputs.push({ file: specFile, kind: "ladder", sha256: sha256Hex(json.bytes) });
    const parsed = parseWithSchema(LadderSpecSchema, json.value, { file: specFile });
    if (parsed.ok) spec = parsed.value;
    else issues.push(...parsed.issues);
  } else {
    inputs.push({ file: specFile, kind: "ladder", sha256: null });
    issues.push(json.issue);
  }
  const unitsFile = join(dir, "units.jsonl");
  const units: UnitLine[] = [];
  await readLines(unitsFile, "units", inputs, issues, (value, line) => {
    if (value.arm !== "base" && value.arm !== "cand") {
      issues.push({
        code: "arm_unknown",
        message: `arm must be "base" or "cand", got ${JSON.stringify(value.arm)}`,
        file: unitsFile,
        line,
        path: "arm",
      });
      return;
    }
    const parsed = parseWithSchema(UnitLineSchema, value, { file: unitsFile, line });
    if (parsed.ok) units.push({ ...parsed.value, arm: value.arm, line });
    else issues.push(...parsed.issues);
  });
  let baseline: BaselineLine[] | null = null;
  if (prefill !== undefined) {
    const lines: BaselineLine[] = [];
    baseline = lines;
    await readLines(prefill, "baseline", inputs, issues, (value, line) => {
      const parsed = parseWithSchema(BaselineLineSchema, value, { file: prefill, line });
      if (parsed.ok) lines.push(parsed.value);
      else issues.push(...parsed.issues);
    });
  }
  return { spec, units, baseline, issues, inputs };
}

async function readLines(
  file: string,
  kind: LadderInput["kind"],
  inputs: LadderInput[],
  issues: Issue[],
  visit: (value: Record<string, unknown>, line: number) => void,
): Promise<void> {
  const chunks: Uint8Array[] = [];
  try {
    issues.push(...await forEachJsonlLine(file, visit, { onBytes: (c) => chunks.push(c.slice()) }));
    inputs.push({ file, kind, sha256: sha256Hex(...chunks) });
  } catch (error) {
    issues.push({
      code: "io_error",
      message: `cannot read: ${error instanceof Error ? error.message : error}`,
      file,
    });
    inputs.push({ file, kind, sha256: null });
  }
}
