/**
 * Sequential re-analysis (`gate sequential`): the bundle, the re-analysis of a gate and its tables, figures and report section (`gl.sequential.sequentialOfGate`).
 *
 * @module
 */
export {
  sequentialBundle,
  sequentialFigures,
  sequentialOfGate,
  sequentialSection,
  sequentialTables,
} from "../sequential/mod.ts";
