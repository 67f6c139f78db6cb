/**
 * The output schemas of lib/contract/outputs against what gatelab really
 * writes: every output file of the demo parses with its schema, the
 * writers' document types are assignable to the schemas' input types (a
 * compile-time check: `deno check` fails when a writer and its schema
 * disagree), and a broken file is refused with its field path.
 */
import type { z } from "zod";
import { deepEqual, ok } from "node:assert/strict";
import { OUTPUT_SCHEMAS } from "../lib/contract/outputs/mod.ts";
import type {
  ComparisonSchema,
  ContributionsSchema,
  DiagnosticsSchema,
  LegacyComparisonSchema,
  RewardLineSchema,
  SelectionSchema,
  StabilitySchema,
  ValidationSchema,
} from "../lib/contract/outputs/mod.ts";
import type {
  ContributionsOutput,
  DiagnosticsOutput,
  SelectionOutput,
} from "../lib/analyze/types.ts";
import type { ComparisonOutput } from "../lib/gateb/compare.ts";
import type { LegacyComparison } from "../lib/explore/legacy_intercept.ts";
import type { ValidationReport } from "../lib/validate/document.ts";
import type { ValidationDocument } from "../lib/core/validation_document.ts";
import type { RewardLine } from "../lib/reward/recipe.ts";
import type { SelectionStability } from "../lib/infer/bootstrap/bootstrap.ts";
import { demoOutputs } from "./demo_outputs.ts";

/** Compiles only when `Writer` is assignable to `Schema`'s input type. */
type Writes<Schema extends z.ZodType, Writer extends z.input<Schema>> = [Schema, Writer];

// Each line fails `deno check` when the writer's type and its schema drift apart.
// (sequential.json, ladder_result.json and history.json need no line: their
// writers' types are the schemas' own z.output types.)
export type WriterChecks = [
  Writes<typeof ContributionsSchema, ContributionsOutput>,
  Writes<typeof SelectionSchema, SelectionOutput>,
  Writes<typeof DiagnosticsSchema, DiagnosticsOutput>,
  Writes<typeof StabilitySchema, SelectionStability>,
  Writes<typeof ComparisonSchema, ComparisonOutput>,
  Writes<
    typeof LegacyComparisonSchema,
    LegacyComparison & {
      exploratory: true;
      generator: { tool: string; version: string; command: string };
    }
  >,
  Writes<typeof ValidationSchema, ValidationReport>,
  Writes<typeof ValidationSchema, ValidationDocument>,
  Writes<typeof RewardLineSchema, RewardLine>,
];

Deno.test("every output file of the demo parses with its schema", async () => {
  const out = await demoOutputs();
  const seen = new Set<string>();
  for await (const dir of Deno.readDir(out)) {
    if (!dir.isDirectory) continue;
    for await (const file of Deno.readDir(`${out}/${dir.name}`)) {
      const schema = OUTPUT_SCHEMAS[file.name];
      if (!schema) continue;
      const text = await Deno.readTextFile(`${out}/${dir.name}/${file.name}`);
      const values = file.name.endsWith(".jsonl")
        ? text.trim().split("\n").map((line) => JSON.parse(line))
        : [JSON.parse(text)];
      for (const value of values) {
        const parsed = schema.safeParse(value);
        deepEqual(
          parsed.success ? [] : parsed.error.issues.map((i) => i.path.join(".")),
          [],
          `${dir.name}/${file.name}`,
        );
      }
      seen.add(file.name);
    }
  }
  // The demo refuses the planted ledger and firewall problems, so those two clean outputs are absent.
  deepEqual(
    Object.keys(OUTPUT_SCHEMAS).filter((name) => !seen.has(name)),
    ["ledger_audit.json", "firewall.json"],
  );
});

Deno.test("a schema reports the field path of a broken output", () => {
  const schema = OUTPUT_SCHEMAS["selection.json"]!;
  const parsed = schema.safeParse({
    format: "gatelab.selection/v1",
    metric: "reward",
    budget_k: 2,
    selected: ["a"],
    decisions: [{
      slot_id: "s",
      version_id: "a",
      role: "add",
      alpha: "0.1",
      rank: 1,
      status: "selected",
      retired: false,
    }],
    tie_tolerance: 1e-12,
    exploratory: false,
    gate_budget_k: 2,
    stage: "cold_start",
    gate_ids: ["g"],
    baseline_sha256: "x",
    estimator: "paired_delta_ols_no_intercept",
    conventions: {},
    generator: { tool: "gatelab", version: "0", command: "gate analyze g" },
  });
  ok(!parsed.success);
  deepEqual(parsed.error.issues.map((i) => i.path.join(".")), ["decisions.0.alpha"]);
});
