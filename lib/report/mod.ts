/** HTML report, notebook display helpers and notebook progress. */
export * from "./escape_html.ts";
export * from "./html_table.ts";
export * from "./display.ts";
export * from "./notebook_progress.ts";
export * from "./read_analysis_dir.ts";
export * from "./report.ts";
export * from "./report_files.ts";
export * from "./value_or_throw.ts";
export * from "./query_table.ts";
export * from "./display_section.ts";
export * from "./bundles.ts";
export * from "./analysis_outputs.ts";
