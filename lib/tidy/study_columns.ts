/**
 * The study-wide tables of `gate build` (`<out>/tables/`): their manifest's
 * format and the columns each starts with. Here, below the build, so that
 * readers of tables (`gate sql`) know them too.
 *
 * @module
 */

/** The format of `<out>/tables/tables.json`. */
export const STUDY_TABLES_FORMAT = "gatelab.study-tables/v1";

/** The columns every study-wide table starts with. */
export const STUDY_COLUMNS = ["study", "step", "gate", "checkpoint_id", "round"] as const;
