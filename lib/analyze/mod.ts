/**
 * The gate analysis stage: fits, selection and output documents, as
 * library calls, and the bundle of its outputs: `analysisTables`,
 * `analysisFigures`, `analysisFiles` and `analysisSection`.
 */
export * from "./types.ts";
export * from "./analyze.ts";
export * from "./analyze_options.ts";
export * from "./analysis_warnings.ts";
export * from "./document.ts";
export * from "./merge_bootstrap.ts";
export * from "./metric_output.ts";
export * from "./row_label.ts";
export * from "./selection.ts";
export * from "./task_rows.ts";
export * from "./resume.ts";
export * from "./diagnostics.ts";
export * from "./analyze_tidy.ts";
export * from "./files.ts";
export * from "./figures.ts";
export * from "./section.ts";
export * from "./tables.ts";
export * from "./bootstrap_tables.ts";
export * from "./diagnostics_tables.ts";
export * from "./checkpoint_tables.ts";
// Sums tables: per-task sufficient statistics computed by an engine (gate analyze --sums).
export * from "./sums_sql.ts";
export * from "./sums_read.ts";
export * from "./sums_fit.ts";
export * from "./sums_rows.ts";
export * from "./sums_analysis.ts";
export * from "./sums_files.ts";
// The report's decision table; the tidy `selection` table is analyze_tidy.ts's.
export { selectionTable } from "./tables.ts";
export * from "./bundle.ts";
