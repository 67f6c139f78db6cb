/** Held-out ranking checks: a task split fitted on one part and measured on the other, the plan file that fixes it, and rank agreement (Spearman, Kendall). */
export * from "./rank_agreement.ts";
export * from "./heldout.ts";
export * from "./heldout_plan_file.ts";
