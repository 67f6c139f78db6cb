/** Rendering: tables (Markdown, LaTeX), figures and reports. */
export * from "./table.ts";
export * from "./format.ts";
export * from "./run_scope.ts";
export * from "./section.ts";
