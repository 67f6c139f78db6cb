/** Held-out ranking checks: a task split fitted on one part and measured on the other, the plan file that fixes it, and rank agreement (Spearman, Kendall); heldout.json's bundle: document, tables, figures, files and report section. */
export * from "./rank_agreement.ts";
export * from "./heldout.ts";
export * from "./heldout_plan_file.ts";
export * from "./document.ts";
export * from "./tables.ts";
export * from "./figures.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
