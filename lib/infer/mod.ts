/** Inference: task bootstrap, selection stability, misfit diagnostics. */
export * from "./bootstrap/mod.ts";
export * from "../math/distributions.ts";
export { normalCdf, normalQuantile } from "../math/normal.ts";
export * from "./diagnostics/mod.ts";
