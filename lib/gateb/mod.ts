/** Gate B: equipped vs bare on held-out tasks, refused unless they differ only in the skill. */
export * from "./checks.ts";
export * from "./compare.ts";
export * from "./compare_dirs.ts";
export * from "./compared_quantity.ts";
export * from "./document.ts";
export * from "./draw_interval.ts";
export * from "./paired_bootstrap.ts";
export * from "./ratio_of_sums.ts";
export * from "./task_index.ts";
export * from "./task_sums.ts";
export * from "./comparison_types.ts";
export * from "./tables.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
