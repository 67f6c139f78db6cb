/** Tidy tables (one observation per row) and their CSV and Parquet files, shared by every command. */
export * from "./tidy_table.ts";
export * from "./tidy_parquet.ts";
export * from "./tidy_files.ts";
export * from "./arrow_columns.ts";
export * from "./tidy_read.ts";
export * from "./study_columns.ts";
