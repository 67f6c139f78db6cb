/** Inference: task bootstrap, selection stability, held-out checks, misfit diagnostics, power planning. */
export * from "./bootstrap/cluster_sums.ts";
export * from "./bootstrap/bootstrap_kernel.ts";
export * from "./bootstrap/bootstrap.ts";
export * from "./bootstrap/bca.ts";
export * from "../math/distributions.ts";
export { normalCdf, normalQuantile } from "../math/normal.ts";
export * from "./diagnostics/diagnostics.ts";
export * from "./power/power.ts";
export * from "./heldout/rank_agreement.ts";
export * from "./heldout/heldout.ts";
export * from "./power/power_from.ts";
export * from "./heldout/heldout_plan_file.ts";
