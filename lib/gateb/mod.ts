/** Gate B: equipped vs bare on held-out tasks, refused unless they differ only in the skill. */
export * from "./checks.ts";
export * from "./compare.ts";
export * from "./compare_dirs.ts";
