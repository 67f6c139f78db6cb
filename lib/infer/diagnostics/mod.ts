/** Misfit diagnostics: residuals by count, AMCE, the interaction screen and joint Wald tests. */
export * from "./diagnostics.ts";
