/** The data contract (docs/FORMAT.md sections 1 and 2) as zod schemas. */
export * from "./manifest.ts";
export * from "./trace.ts";
export * from "./gate.ts";
export * from "./assignment.ts";
export * from "./schema_issues.ts";
export * from "./unrecorded.ts";
export * from "./trace_fast.ts";
export * from "./assignment_fast.ts";
export * from "./outputs/mod.ts";
