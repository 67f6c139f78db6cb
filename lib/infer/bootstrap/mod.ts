/** The task bootstrap: cluster sums, the draw kernel (JS, wasm, workers), percentile and BCa intervals, selection stability. */
export * from "./cluster_sums.ts";
export * from "./bootstrap_kernel.ts";
export * from "./bootstrap.ts";
export * from "./task_bootstrap_options.ts";
export type { BootstrapOptions, ResolvedBootstrapOptions } from "../../core/bootstrap_options.ts";
export * from "./bca.ts";
