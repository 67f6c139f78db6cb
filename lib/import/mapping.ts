import { z } from "npm:zod@4.6.7";
import type { Issue } from "../core/issue.ts";
import { nearestName } from "../core/nearest_name.ts";

const column = z.string().min(1);
const armValue = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/**
 * Schema of an import mapping file (`gatelab.import-map/v1`, docs/import.md):
 * how a flat table's columns and values map to the data contract, plus the
 * constants the table does not hold. Every object is strict: an unknown key
 * is an error that names it (a misspelt key would otherwise be ignored and
 * its default used silently).
 *
 * @example
 * ```ts
 * import { ImportMappingSchema } from "./mapping.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = ImportMappingSchema.safeParse({ format: "gatelab.import-map/v1", colums: {} });
 * deepEqual(r.success ? [] : r.error.issues.map((i) => i.code), ["unrecognized_keys"]);
 * ```
 */
export const ImportMappingSchema = z.strictObject({
  format: z.literal("gatelab.import-map/v1"),
  /** Contract field (or `components`/`mask`) to the table's column name. */
  columns: z.strictObject({
    task_id: column.optional(),
    sample_id: column.optional(),
    split: column.optional(),
    arm: column.optional(),
    round: column.optional(),
    checkpoint_id: column.optional(),
    attempt: column.optional(),
    status: column.optional(),
    reward: column.optional(),
    job_seed: column.optional(),
    injected: column.optional(),
    error: column.optional(),
    /** Reward component (`r_<name>`) to column. */
    components: z.record(z.string().regex(/^r_.+/, "a component name starts with r_"), column)
      .optional(),
    /** Version id to its 0/1 column. */
    mask: z.record(z.string().min(1), column).optional(),
  }).optional(),
  /** The table's values for the two arms (one value or a list each). */
  arm_values: z.strictObject({ bare: armValue, masked: armValue }).optional(),
  /** The table's values for the two statuses. */
  status_values: z.strictObject({ completed: armValue, failed: armValue }).optional(),
  /** Declared versions: slot, chunk and role of each (order = design column order). */
  versions: z.record(
    z.string().min(1),
    z.strictObject({
      slot: z.string().min(1).optional(),
      chunk_id: z.string().min(1).optional(),
      role: z.enum(["current", "add", "old", "new"]).optional(),
      text_sha256: z.string().optional(),
    }),
  ).optional(),
  budget_k: z.int().min(1).optional(),
  stage: z.enum(["cold_start", "online"]).optional(),
  /** The column (or component) whose values are `reward`, the primary metric. */
  primary: column.optional(),
  /** The split of every row, when the table has no split column. */
  split: z.string().min(1).optional(),
  mask_seed: z.int().optional(),
  p_present: z.number().min(0).max(1).optional(),
  /** Constant provenance the table lacks; whatever is not given is written as unrecorded. */
  provenance: z.strictObject({
    checkpoint_id: z.string().min(1).optional(),
    model: z.string().optional(),
    endpoint: z.string().optional(),
    sampling: z.record(z.string(), z.unknown()).optional(),
    send_seed: z.boolean().optional(),
    base_prompt_sha256: z.string().optional(),
    environment: z.strictObject({
      name: z.string(),
      version: z.string(),
      config_sha256: z.string(),
    }).optional(),
    runtime: z.strictObject({ protocol: z.string(), max_steps: z.int().min(0) }).optional(),
    reward_version: z.string().optional(),
  }).optional(),
  /**
   * inspect_ai logs: dotted paths inside a sample for reward, components and
   * injected ids; `arm_args`, the task (or solver) arguments that are the
   * arm's own (how the masked arm switches the skill on): left out of the
   * environment compared between the arms and recorded instead.
   */
  inspect: z.strictObject({
    reward: z.string().min(1).optional(),
    components: z.record(z.string().regex(/^r_.+/, "a component name starts with r_"), z.string())
      .optional(),
    injected: z.string().min(1).optional(),
    arm_args: z.array(z.string().min(1)).optional(),
  }).optional(),
});

/**
 * A parsed import mapping.
 *
 * @ignore
 */
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

/** The mapping used when none is given: canonical column names only. */
export const DEFAULT_MAPPING: ImportMapping = { format: "gatelab.import-map/v1" };

/**
 * Parses a mapping document into the mapping or `schema_error` issues; an
 * unknown key gets one issue naming it (and the nearest known key).
 *
 * @param value The parsed JSON.
 * @param file The mapping file, for the issues.
 * @returns The mapping, or the issues.
 *
 * @example
 * ```ts
 * import { parseMapping } from "./mapping.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = parseMapping({ format: "gatelab.import-map/v1", columns: { taks_id: "problem" } }, "m.json");
 * deepEqual(r.ok ? [] : r.issues.map((i) => [i.path, i.message]), [
 *   ["columns.taks_id", 'unknown key "taks_id" (did you mean task_id?)'],
 * ]);
 * ```
 */
export function parseMapping(
  value: unknown,
  file: string,
): { ok: true; value: ImportMapping } | { ok: false; issues: Issue[] } {
  const parsed = ImportMappingSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues: Issue[] = [];
  for (const zi of parsed.error.issues) {
    const at = zi.path.map(String);
    if (zi.code === "unrecognized_keys") {
      const known = knownKeys(at);
      for (const key of zi.keys) {
        const near = nearestName(key, known);
        issues.push({
          code: "schema_error",
          message: `unknown key "${key}"${near ? ` (did you mean ${near}?)` : ""}`,
          file,
          path: [...at, key].join("."),
        });
      }
      continue;
    }
    const missing = valueAt(value, at) === undefined;
    issues.push({
      code: "schema_error",
      message: missing ? "is required here" : zi.message,
      file,
      path: at.join("."),
    });
  }
  return { ok: false, issues };
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Keys of the strict object at `path` of the mapping schema. */
function knownKeys(path: readonly string[]): string[] {
  // deno-lint-ignore no-explicit-any
  let schema: any = ImportMappingSchema;
  for (const key of path) {
    // unwrap optional and record layers down to the object at `path`
    while (schema?.def?.innerType) schema = schema.def.innerType;
    if (schema?.def?.type === "record") schema = schema.def.valueType;
    else schema = schema?.def?.shape?.[key];
  }
  while (schema?.def?.innerType) schema = schema.def.innerType;
  if (schema?.def?.type === "record") schema = schema.def.valueType;
  return Object.keys(schema?.def?.shape ?? {});
}
