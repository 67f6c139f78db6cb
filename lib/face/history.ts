/**
 * History across checkpoints (`gate history`): the bundle and its tables, figures and report section (`gl.history.historyTables`).
 *
 * @module
 */
export { historyBundle, historyFigures, historySection, historyTables } from "../history/mod.ts";
