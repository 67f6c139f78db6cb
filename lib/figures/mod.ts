/** Figures: Observable Plot rendered headlessly into standalone SVG (and PNG). */
export type { Figure, PaperFigure } from "../table/figure.ts";
export * from "./forest.ts";
export * from "./delta_by_count.ts";
export * from "./stability.ts";
export * from "./heldout.ts";
export * from "./figure_files.ts";
export * from "./bundle_files.ts";
