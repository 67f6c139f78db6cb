/** Power planning: the analytic standard error and minimum detectable effect of a 0/1 gate, simulated selection power, and its inputs from a past analysis; power.json's bundle: document, tables, files and report section. */
export * from "./power.ts";
export * from "./power_from.ts";
export * from "./document.ts";
export * from "./tables.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
