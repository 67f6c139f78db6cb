/** Validation: strict pairing checks, the paired dataset, validation.json. */
export * from "./plan.ts";
export * from "./provenance.ts";
export * from "./rank.ts";
export * from "./slots.ts";
export * from "./run_checks.ts";
export * from "./validate_gates.ts";
export * from "./report.ts";
export * from "./inputs_table.ts";
export * from "./summary.ts";
