/** Paper statistics of a study: slot resolution, unresolved bounds, paired seeds x tasks bootstrap, costs. */
export * from "./schema.ts";
export * from "./resolve.ts";
export * from "./arm_grid.ts";
export * from "./bootstrap.ts";
export * from "./cost.ts";
export * from "./analyze.ts";
export * from "./load.ts";
export * from "./document.ts";
export type { TrainSeed } from "./_keys.ts";
export * from "./tables.ts";
export * from "./figures.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
