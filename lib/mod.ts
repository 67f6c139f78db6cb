/**
 * gatelab: re-analysis of randomized skill-validation gates.
 *
 * The one public entry point for notebooks and the CLI. Each stage lives
 * in its own folder under lib/ and is re-exported here.
 *
 * @module
 */
export * from "./core/mod.ts";
export * from "./report/mod.ts";
export * from "./contract/mod.ts";
export * from "./load/mod.ts";
export * from "./validate/mod.ts";
export * from "./study/mod.ts";
export * from "./infer/mod.ts";
export * from "./demo/mod.ts";
export * from "./fit/mod.ts";
export * from "./select/mod.ts";
export * from "./analyze/mod.ts";
export * from "./reward/mod.ts";
export * from "./gateb/mod.ts";
export * from "./sql/mod.ts";
export * from "./figures/mod.ts";
export * from "./html/mod.ts";
export * from "./cache/mod.ts";
