/**
 * `gate import`: flat tables (CSV, TSV, Parquet, JSON Lines) and inspect_ai
 * logs into contract directories, with every field the source does not
 * record written as unrecorded (docs/import.md).
 *
 * @module
 */
export * from "./mapping.ts";
export * from "./table.ts";
export * from "./rows.ts";
export * from "./build.ts";
export * from "./import_tables.ts";
export * from "./document.ts";
export * from "./files.ts";
export * from "./bundle.ts";
