/**
 * The one state the phases of an import's build work over
 * (lib/import/build.ts): the rows, what each phase found (versions,
 * episodes, runs, plans, masks) and the issues and defaults so far.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import type { ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { EpisodeNumbers } from "./episode_numbers.ts";

/** What the source holds besides the rows: the columns found, constant provenance. */
export interface BuildContext {
  /** Components in first-seen order over all sources. */
  readonly components: readonly string[];
  /** Versions named by mask columns, in order (empty when the source has none). */
  readonly maskVersions: readonly string[];
  /**
   * Provenance a run's source records (an inspect log's header), by arm and
   * round (null for the bare run); the mapping's constants fill the rest.
   */
  readonly provenanceOf?: (
    arm: "bare" | "masked",
    round: string | null,
  ) => Readonly<Record<string, unknown>> | undefined;
  /** Whether the source records the planned tasks (not only the tasks that ran). */
  readonly tasksRecorded?: boolean;
  /**
   * The planned tasks of the bare run, in plan order, when the source
   * records them (an inspect log's `eval.dataset.sample_ids`); otherwise the
   * plan is the bare rows' tasks in first-seen order.
   */
  readonly plannedTasks?: readonly string[];
}

/** A default gatelab chose because the source did not say. */
export interface ImportDefault {
  readonly field: string;
  readonly value: unknown;
  readonly why: string;
}

/** A version of the gate being built. */
export interface Version {
  readonly version_id: string;
  readonly slot_id: string;
  readonly chunk_id: string;
  role: "current" | "add" | "old" | "new" | null;
  readonly text_sha256?: string;
}

/** A bare run's plan: its tasks and sample ids, and where its episodes are. */
export interface BarePlan {
  readonly key: string;
  readonly checkpoint: string | null;
  readonly split: string;
  readonly tasks: string[];
  readonly repeats: number;
  /** Per episode number: its first row here (an index in `rows`), -1 when not in the run. */
  readonly firstRow: Int32Array;
  /** The run's episode numbers in first-seen order. */
  readonly episodes: readonly number[];
  /** Indices in `rows`. */
  readonly rows: readonly number[];
}

/** Everything the phases share; each phase fills its part. */
export interface BuildState {
  readonly rows: readonly ImportRow[];
  readonly mapping: ImportMapping;
  readonly context: BuildContext;
  readonly issues: Issue[];
  readonly defaults: ImportDefault[];
  /** The injected list's column, for issues. */
  readonly injectedColumn: string;
  /** A version's mask column, for issues. */
  readonly maskColumnOf: (version: string) => string;
  /** Whether the versions are closed (declared, or named by mask columns): an unknown id is an error. */
  readonly closed: boolean;
  /** The versions in design-column order. */
  readonly order: string[];
  readonly known: Set<string>;
  readonly versions: Map<string, Version>;
  /** Slot id to its versions, in first-seen order. */
  readonly slots: Map<string, Version[]>;
  readonly episodeIndex: EpisodeNumbers;
  /** Per row (by index in `rows`): its episode number. */
  readonly episodeOf: Int32Array;
  /** Number of episodes. */
  episodes: number;
  /** Per row: the versions present (shared by rows with one mask). */
  readonly present: (readonly string[])[];
  /** Bare run key (checkpoint, split) to its rows. */
  readonly bareRows: Map<string, number[]>;
  /** Round key to its masked rows. */
  readonly roundRows: Map<string, number[]>;
  /** Per row: its attempt number. */
  readonly attemptOf: number[];
  /** Bare run key to its plan. */
  readonly plans: Map<string, BarePlan>;
  /** Round key to the plan of its bare run. */
  readonly roundPlan: Map<string, BarePlan>;
  /** Round key to each episode number's mask (undefined: none recorded). */
  readonly assignment: Map<string, (readonly string[] | undefined)[]>;
}

/** The state before the first phase. */
export function buildState(
  rows: readonly ImportRow[],
  mapping: ImportMapping,
  context: BuildContext,
): BuildState {
  const declared = mapping.versions !== undefined ? Object.keys(mapping.versions) : null;
  const order: string[] = declared ?? [...context.maskVersions];
  return {
    rows,
    mapping,
    context,
    issues: [],
    defaults: [],
    injectedColumn: mapping.columns?.injected ?? "injected",
    maskColumnOf: (v) => mapping.columns?.mask?.[v] ?? `mask:${v}`,
    closed: declared !== null || context.maskVersions.length > 0,
    order,
    known: new Set(order),
    versions: new Map(),
    slots: new Map(),
    episodeIndex: new EpisodeNumbers(),
    episodeOf: new Int32Array(rows.length),
    episodes: 0,
    present: new Array(rows.length),
    bareRows: new Map(),
    roundRows: new Map(),
    attemptOf: new Array(rows.length),
    plans: new Map(),
    roundPlan: new Map(),
    assignment: new Map(),
  };
}

/** The empty list of versions present, shared (never changed). */
export const NONE: readonly string[] = Object.freeze([]);

/** A checkpoint as a key ("" when unrecorded). */
export const checkpointKey = (c: string | null): string => c ?? "";

/** The key of a bare run: checkpoint and split. */
export const bareKey = (checkpoint: string | null, split: string): string =>
  `${checkpointKey(checkpoint)}\u0000${split}`;

/** Where an issue of a row is: its file and row, and the column when given. */
export const at = (
  r: ImportRow,
  column?: string,
): { file: string; line: number } | { file: string; line: number; path: string } =>
  column === undefined
    ? { file: r.file, line: r.row }
    : { file: r.file, line: r.row, path: column };
