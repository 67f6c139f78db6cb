/** Reward recipes (docs/reward.md): level-to-reward mapping, verdict masking, recipes A/B/C, recipe comparison. */
export * from "./levels.ts";
export * from "./schema.ts";
export * from "./mask.ts";
export * from "./recipe.ts";
export * from "./rewards.ts";
export * from "./compare.ts";
export * from "./load.ts";
export * from "./reward_types.ts";
export * from "./document.ts";
export * from "./run.ts";
export * from "./tables.ts";
export * from "./figures.ts";
export * from "./files.ts";
export * from "./section.ts";
export * from "./bundle.ts";
