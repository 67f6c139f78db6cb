/**
 * Past gates as a history: steps read from analyses or gates, lineage
 * checks, chunk lifecycles, the internalization screen, tables and
 * figures (docs/history.md).
 *
 * @module
 */
export { buildHistory, type HistoryDocument } from "./document.ts";
export { readHistorySteps } from "./read_steps.ts";
export { lineageIssues } from "./lineage.ts";
export { chunkLifecycles } from "./lifecycle.ts";
export { internalizationScreen } from "./internalization.ts";
export { wlsTrend } from "./wls_trend.ts";
export { exposureTable, historyTables, internalizationTable, lifecycleTable } from "./tables.ts";
export { historyFigures, lifecycleFigure, trajectoryFigure } from "./figures.ts";
export { historyFiles } from "./files.ts";
export { historySection } from "./section.ts";
export type { HistoryStep, StepVersion } from "./step.ts";
export * from "./bundle.ts";
