/**
 * A study: the bundle, its report section and the tables, rows and plot its figures are made of (`gl.study.studyPlot`).
 *
 * @module
 */
export {
  studyArmsTable,
  studyBundle,
  studyComparisonsTable,
  studyCostsTable,
  studyPlot,
  studyRowsFromAnalysis,
  studySection,
} from "../study/mod.ts";
