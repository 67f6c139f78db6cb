/**
 * The seam between a build and the study-wide outputs it ends with
 * (`<out>/tables/`, `<out>/report/`, `<out>/paper/`): the layout a build
 * hands over and the three entry points of the assembly, pure over a
 * finished output root. `gate build` writes each of the three folders as
 * one unit through the output swap, and skips it when nothing it reads
 * changed.
 *
 * @module
 */

import type { StudyAssembly } from "./assembly_types.ts";

export type { StudyAssembly, StudyLayout } from "./assembly_types.ts";

/**
 * Loads the study-wide assembly (lib/build/assemble/). Called only in a
 * build's worker, so the build's own thread never loads the stages the
 * assembly reads.
 */
export const STUDY_ASSEMBLY: () => Promise<StudyAssembly> = () => import("./assemble/mod.ts");
