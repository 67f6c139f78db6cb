/** Loading: streaming JSONL reader, run and gate directory readers, schema-checked JSONL and JSON files, the bare run path. */
export * from "./version.ts";
export * from "./jsonl.ts";
export * from "./read_run.ts";
export * from "./read_gate.ts";
export * from "./bare_dir.ts";
export * from "./read_jsonl.ts";
export * from "./import_dirs.ts";
