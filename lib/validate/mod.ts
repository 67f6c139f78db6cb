/** Validation: strict pairing checks, the paired dataset, validation.json. */
export * from "./plan.ts";
export * from "./provenance.ts";
export * from "./rank.ts";
export * from "./slots.ts";
export * from "./run_checks.ts";
export * from "./read_inputs.ts";
export * from "./completed_run_checks.ts";
export * from "./bare_checks.ts";
export * from "./plan_checks.ts";
export * from "./pairing_checks.ts";
export * from "./assignment_checks.ts";
export * from "./episode_checks.ts";
export * from "./design_checks.ts";
export * from "./paired_dataset.ts";
export * from "./validate_gates.ts";
export * from "./report.ts";
export * from "./dataset_or_throw.ts";
