/**
 * Gate B (`gate compare`): the bundle and its report section (`gl.gateb.comparisonSection`).
 *
 * @module
 */
export { comparisonBundle, comparisonSection } from "../gateb/mod.ts";
