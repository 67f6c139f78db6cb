/** Inference: task bootstrap, selection stability, held-out checks, misfit diagnostics, power planning. */
export * from "./cluster_sums.ts";
export * from "./bootstrap_kernel.ts";
export * from "./bootstrap.ts";
export * from "./bca.ts";
export * from "./distributions.ts";
export * from "./diagnostics.ts";
export * from "./power.ts";
export * from "./rank_agreement.ts";
export * from "./heldout.ts";
export * from "./power_from.ts";
export * from "./heldout_plan_file.ts";
