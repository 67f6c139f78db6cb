/**
 * Held-out checks: the bundle, its report section, and the tables, points and plot its figures are made of (`gl.heldout.heldoutGainPoints`).
 *
 * @module
 */
export {
  acrossGateRankPoints,
  acrossGateTable,
  heldoutBundle,
  heldoutGainPoints,
  heldoutSection,
  heldoutSummaryTable,
} from "../heldout/mod.ts";
export { rankAgreementPlot } from "../figures/mod.ts";
