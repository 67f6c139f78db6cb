import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, opaque } from "../contract/outputs/common.ts";

/**
 * Schema of `import.json` (docs/FORMAT.md, Extensions: import.json), the
 * record `gate import` writes beside the directories it made: the inputs
 * and their hashes, every run and gate directory (relative to `--out`),
 * every field the source does not record with the files and its
 * consequence, and the defaults gatelab chose.
 *
 * @example
 * ```ts
 * import { ImportDocumentSchema } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(ImportDocumentSchema.safeParse({ format: "gatelab.import/v1" }).success, false);
 * ```
 */
export const ImportDocumentSchema = z.object({
  format: z.literal("gatelab.import/v1"),
  kind: z.enum(["table", "inspect"]),
  source: list(z.string()),
  source_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  inputs: list(z.object({
    file: z.string(),
    format: z.string(),
    rows: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })),
  mapping: z.object({ file: z.string(), sha256: z.string() }).nullable(),
  runs: list(z.object({
    dir: z.string(),
    run_id: z.string(),
    checkpoint_id: z.string().nullable(),
    split: z.string(),
    rows: z.int().min(1),
  })),
  gates: list(z.object({
    dir: z.string(),
    gate_id: z.string(),
    round: z.string().nullable(),
    checkpoint_id: z.string().nullable(),
    split: z.string(),
    bare_run_dir: z.string(),
    rows: z.int().min(1),
  })),
  unrecorded: list(
    z.object({ field: z.string(), consequence: z.string(), files: list(z.string()) }),
  ),
  defaults: list(z.object({ field: z.string(), value: z.unknown(), why: z.string() })),
  /** Present when a source value's directory got a suffix: another value makes the same name. */
  renamed: list(z.object({
    field: z.enum(["checkpoint_id", "split", "round"]),
    value: z.string().nullable(),
    name: z.string(),
    dir: z.string(),
  })).optional(),
  columns: list(z.unknown()),
  conventions: opaque,
  generator: GeneratorSchema,
});

/**
 * A parsed import.json.
 *
 * @ignore
 */
export type ImportDocument = z.infer<typeof ImportDocumentSchema>;
