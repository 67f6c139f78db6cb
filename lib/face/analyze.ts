/**
 * The gate analysis's bundle and the tables a notebook does not call by name (`gl.analyze.coefficientTables`): the coefficient, diagnostics and selection tables that `analysisTables` places; and the analysis from sums tables an engine computes past one machine (`gl.analyze.sumsTableSql`, `gl.analyze.analyzeSums`).
 *
 * @module
 */
export {
  analysisBundle,
  analyzeSums,
  coefficientTables,
  diagnosticsTables,
  pairedLayout,
  readSumsTable,
  selectionTable,
  SUMS_ANALYSIS_FORMAT,
  SUMS_FORMAT,
  sumsColumnNames,
  sumsTableSql,
} from "../analyze/mod.ts";
