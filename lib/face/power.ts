/**
 * The power plan's bundle and its report section (`gl.power.powerSection`).
 *
 * @module
 */
export { powerBundle, powerSection } from "../power/mod.ts";
