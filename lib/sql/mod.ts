/**
 * SQL over loaded runs and gates with duckdb-wasm. Nothing here starts
 * DuckDB at import: {@linkcode openDuckDb} loads the engine on call.
 */
export * from "./query_result.ts";
export * from "./engine.ts";
export * from "./sql_schema.ts";
export * from "./run_tables.ts";
export * from "./gate_tables.ts";
export * from "./arrow_ipc.ts";
export * from "./load_tables.ts";
export * from "./read_sources.ts";
export * from "./format.ts";
export * from "./tables.ts";
export * from "./output_tables.ts";
export * from "./named_tables.ts";
