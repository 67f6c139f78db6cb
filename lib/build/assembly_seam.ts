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

import type { FileContents } from "../core/atomic_write.ts";

/** What the assembly needs of a study. */
export interface StudyLayout {
  /** `study:` (captions, labels). */
  readonly name: string;
  /** The output root, absolute. */
  readonly out: string;
  /** Every step (imports are not steps), in study order. */
  readonly steps: readonly {
    /** Its output is at `<out>/<id>/`. */
    readonly id: string;
    /** `analyze`, `heldout`, ... */
    readonly command: string;
    /** Its `title:`, if the study gives one. */
    readonly title?: string;
    /** Its input paths, absolute (gate directories, files, other steps' outputs). */
    readonly inputs: readonly string[];
    /** Built or up to date in this build. */
    readonly ok: boolean;
  }[];
  /** `paper:`: its class, or false for none. */
  readonly paper: { readonly class: "acm" | "ieee" | "article" } | false;
  /** `report:`. */
  readonly report: boolean;
}

/** The study-wide assembly's entry points. */
export interface StudyAssembly {
  /** The files under `<out>/tables/`, by path relative to it. */
  studyTableFiles(layout: StudyLayout): Promise<Record<string, FileContents>>;
  /** The files under `<out>/paper/`, by path relative to it. */
  studyPaperFiles(layout: StudyLayout): Promise<Record<string, FileContents>>;
  /** The arguments of `gate report` (after `report`) that write `<out>/report/`. */
  studyReportArgs(layout: StudyLayout): string[];
}

/**
 * Loads the study-wide assembly (lib/build/assemble/). Called only in a
 * build's worker, so the build's own thread never loads the stages the
 * assembly reads.
 */
export const STUDY_ASSEMBLY: () => Promise<StudyAssembly> = () => import("./assemble/mod.ts");
