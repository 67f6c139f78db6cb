/**
 * The gate analysis's bundle and the tables a notebook does not call by name (`gl.analyze.coefficientTables`): the coefficient, diagnostics and selection tables that `analysisTables` places.
 *
 * @module
 */
export {
  analysisBundle,
  coefficientTables,
  diagnosticsTables,
  selectionTable,
} from "../analyze/mod.ts";
