/** Rendering: tables (Markdown, LaTeX), figures and reports. */
export * from "./table.ts";
