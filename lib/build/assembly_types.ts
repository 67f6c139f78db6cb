/**
 * What a build hands the study-wide assembly (`StudyLayout`) and the
 * assembly's entry points (`StudyAssembly`); lib/build/assembly_seam.ts
 * loads the assembly.
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
