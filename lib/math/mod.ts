/** Numbers only, importing nothing else of lib/: the normal and F distributions, the rank rule, the seeded PRNG, the quantile rule and a fast float sort. The kernels (packed.ts, dense.ts, dense_wasm.ts, wasm.ts) are imported by path. */
export * from "./normal.ts";
export * from "./distributions.ts";
export * from "./rank.ts";
export * from "./prng.ts";
export * from "./quantile.ts";
export * from "./sort_float64.ts";
