/**
 * The ladder gate (`gate ladder`): the bundle and its tables, figures and report section (`gl.ladder.ladderTables`).
 *
 * @module
 */
export { ladderBundle, ladderFigures, ladderSection, ladderTables } from "../ladder/mod.ts";
