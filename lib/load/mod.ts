/** Loading: streaming JSONL reader, run and gate directory readers. */
export * from "./version.ts";
export * from "./jsonl.ts";
export * from "./read_run.ts";
export * from "./read_gate.ts";
export * from "./bare_dir.ts";
