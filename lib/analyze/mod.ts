/** The gate analysis pipeline: fits, selection and output documents, as library calls. */
export * from "./types.ts";
export * from "./analyze.ts";
export * from "./bootstrap_hook.ts";
export * from "./resume.ts";
export * from "./diagnostics.ts";
