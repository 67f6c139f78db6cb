import type { Issue } from "../core/issue.ts";
import { UNRECORDED_FIELDS } from "../contract/unrecorded.ts";
import type { ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { type BuildContext, buildState, type ImportDefault } from "./build_state.ts";
import {
  assignRoles,
  checkDeclaredVersions,
  checkRowMasks,
  numberEpisodes,
} from "./build_versions.ts";
import { groupRuns, numberAttempts, pairRounds, planBareRuns, roundMasks } from "./build_runs.ts";
import { buildFiles, type ImportedDir } from "./build_files.ts";
import type { Renamed } from "./build_names.ts";
import type { RowOrigins } from "./row_origins.ts";

export type { BuildContext } from "./build_state.ts";
export type { ImportedDir } from "./build_files.ts";
export type { Renamed } from "./build_names.ts";
export { RowOrigins } from "./row_origins.ts";
export { slug } from "./dir_names.ts";

/** The files of an import (paths relative to `--out`) and what import.json says about them. */
export interface ImportBuild {
  readonly files: Record<string, string | readonly string[]>;
  readonly runs: readonly ImportedDir[];
  readonly gates: readonly ImportedDir[];
  /** Field to the files (relative to `--out`) that do not record it. */
  readonly unrecorded: ReadonlyMap<string, string[]>;
  /** Values gatelab chose because the source did not say (documented defaults). */
  readonly defaults: readonly ImportDefault[];
  /** Source values whose directory got a suffix: another value makes the same name. */
  readonly renamed: readonly Renamed[];
  /** The source file and row of each traces.jsonl line. */
  readonly origins: RowOrigins;
  /** Whether some row records a job seed. */
  readonly seedsRecorded: boolean;
}

/**
 * Splits import rows into contract directories: one bare run per
 * (checkpoint, split) and one gate per masked round, with gate.json,
 * assignments.jsonl, the masked run's manifest.json and traces.jsonl, and
 * every field the source does not record written as `null` and listed in
 * the file's `unrecorded` (docs/FORMAT.md, Extensions). Every problem is an
 * issue naming file, row and column; the files are returned only when
 * there is none.
 *
 * The build is a sequence of phases over one state (lib/import/build_state.ts):
 * versions and episodes (lib/import/build_versions.ts), runs, plans,
 * pairing and masks (lib/import/build_runs.ts), then the files
 * (lib/import/build_files.ts).
 *
 * @param rows The attempts, in source order.
 * @param mapping The mapping (versions, budget, stage, constant provenance).
 * @param context What the source records.
 * @returns The files, or the issues.
 */
export function buildImport(
  rows: readonly ImportRow[],
  mapping: ImportMapping,
  context: BuildContext,
): { ok: true; value: ImportBuild } | { ok: false; issues: Issue[] } {
  const s = buildState(rows, mapping, context);
  checkDeclaredVersions(s);
  numberEpisodes(s);
  assignRoles(s);
  checkRowMasks(s);
  groupRuns(s);
  numberAttempts(s);
  planBareRuns(s);
  pairRounds(s);
  roundMasks(s);
  if (s.issues.length > 0) return { ok: false, issues: s.issues };
  const built = buildFiles(s);
  return { ok: true, value: { ...built, defaults: s.defaults } };
}

/** The unrecorded fields of an import as import.json lists them. */
export function unrecordedList(
  unrecorded: ReadonlyMap<string, readonly string[]>,
): { field: string; consequence: string; files: readonly string[] }[] {
  return [...unrecorded].map(([field, files]) => ({
    field,
    consequence: UNRECORDED_FIELDS[field] ?? "",
    files,
  }));
}
