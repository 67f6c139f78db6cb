/** The gate analysis pipeline: fits, selection and output documents, as library calls. */
export * from "./types.ts";
export * from "./analyze.ts";
export * from "./analyze_options.ts";
export * from "./analysis_warnings.ts";
export * from "./contributions_document.ts";
export * from "./merge_bootstrap.ts";
export * from "./metric_output.ts";
export * from "./row_label.ts";
export * from "./selection_document.ts";
export * from "./task_rows.ts";
export * from "./resume.ts";
export * from "./diagnostics.ts";
export * from "./analysis_tables.ts";
