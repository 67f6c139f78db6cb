/** Inference: task bootstrap, selection stability, held-out checks, misfit diagnostics, power planning. */
export * from "./bootstrap/mod.ts";
export * from "../math/distributions.ts";
export { normalCdf, normalQuantile } from "../math/normal.ts";
export * from "./diagnostics/mod.ts";
export * from "./power/mod.ts";
export * from "./heldout/mod.ts";
