/** Ladder gates: W/L/E/INFRA pairing, the KT e-processes, four exits and the baseline-cache prefill. */
export * from "./schema.ts";
export * from "./fold_unit.ts";
export * from "./e_process.ts";
export * from "./pair_units.ts";
export * from "./run_ladder.ts";
export * from "./prefill.ts";
export * from "./read_ladder.ts";
export * from "./document.ts";
export * from "./tables.ts";
export * from "./figures.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
