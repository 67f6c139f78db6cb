/** Shared building blocks: issues, hashing, atomic writes, seeded randomness, quantiles, types. */
export * from "./issue.ts";
export * from "./sha256.ts";
export * from "./atomic_write.ts";
export * from "./path_error.ts";
export * from "../math/prng.ts";
export * from "../math/quantile.ts";
export * from "./meta.ts";
export * from "./types.ts";
export * from "./progress.ts";
export * from "./validation_document.ts";
export * from "./defaults.ts";
export * from "./conventions.ts";
export * from "./audit_command.ts";
