/**
 * The messages between `gate build` (lib/cli/build.ts) and the worker that
 * runs one unit of it (lib/cli/build_worker.ts).
 *
 * @module
 */
import type { StudyLayout } from "../build/assembly_seam.ts";

/** A unit of work. */
export type BuildJob =
  | { readonly kind: "command"; readonly argv: readonly string[] }
  | { readonly kind: "notebook"; readonly argv: readonly string[]; readonly out: string }
  | {
    readonly kind: "tables" | "paper" | "report";
    readonly layout: StudyLayout;
    readonly dir: string;
  };

/** What a unit posts back. */
export interface BuildJobResult {
  /** The exit code: 0 done, 2 refused, 1 crashed. */
  readonly code: number;
  /** Every line it printed, stdout and stderr in order. */
  readonly lines: readonly string[];
}
