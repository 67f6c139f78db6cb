/** Content-addressed cache of loaded runs (Arrow IPC under .cache/). */
export * from "./run_cache_key.ts";
export * from "./run_table.ts";
export * from "./cached_read_run.ts";
