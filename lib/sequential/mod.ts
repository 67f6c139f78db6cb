/** Sequential re-analysis of paired-delta gates: anytime-valid confidence sequences (docs/FORMAT.md, Extensions). */
export * from "./avlm.ts";
export * from "./prefix_fits.ts";
export * from "./order.ts";
export * from "./masked_lines.ts";
export * from "./sequential.ts";
export * from "./tables.ts";
export * from "./figures.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./sequential_gate.ts";
export * from "./bundle.ts";
