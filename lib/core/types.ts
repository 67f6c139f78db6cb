/**
 * Shared data shapes that pass between stages (load -> validate -> fit ->
 * select -> infer -> report). Plain readonly objects; numeric columns are
 * typed arrays.
 *
 * @module
 */

/** Role of a version in a gate slot (docs/FORMAT.md section 2). */
export type Role = "current" | "add" | "old" | "new";

/** One 0/1 column of the design matrix: one version of one slot. */
export interface DesignColumn {
  /** Version tested by the column (slot id plus version). */
  readonly version_id: string;
  /** Slot the version fills. */
  readonly slot_id: string;
  /** Chunk (skill text) the version belongs to. */
  readonly chunk_id: string;
  /** Role of the version in its slot: current, add, or old/new of a REWRITE family. */
  readonly role: Role;
}

/** Identity of one episode: a planned (split, task, sample). */
export interface EpisodeKey {
  /** Split of the episode (e.g. `val`). */
  readonly split: string;
  /** Task of the episode. */
  readonly task_id: string;
  /** Sample of the task. */
  readonly sample_id: number;
}

/** `split/task_id/sample_id`, the episode label used in issues and tables. */
export function episodeLabel(e: EpisodeKey): string {
  return `${e.split}/${e.task_id}/${e.sample_id}`;
}

/** A run as referenced by outputs: id, directory and content hash. */
export interface RunRef {
  /** Run id from the run's manifest. */
  readonly run_id: string;
  /** Directory the run was read from. */
  readonly run_dir: string;
  /** sha256 over the manifest.json bytes followed by the traces.jsonl bytes. */
  readonly sha256: string;
}

/** One attempt of one episode, as read from traces.jsonl. */
export interface Attempt extends EpisodeKey {
  /** Attempt number, from 0. */
  readonly attempt: number;
  /** Whether the attempt completed or failed. */
  readonly status: "completed" | "failed";
  /** Reward of a completed attempt; null when failed. */
  readonly reward: number | null;
  /** Reward components by name. */
  readonly rewards: Readonly<Record<string, number>>;
  /** Task success of a completed attempt; null when unknown. */
  readonly success: boolean | null;
  /** Version ids injected into the prompt. */
  readonly injected: readonly string[];
  /** Seed of the job, when recorded. */
  readonly job_seed: number | null;
  /** Agent steps taken, when recorded. */
  readonly steps: number | null;
  /** Prompt and completion tokens, when recorded. */
  readonly tokens: { readonly prompt: number; readonly completion: number } | null;
  /** Error of a failed attempt. */
  readonly error: string | null;
  /** Per-attempt provenance as given (unknown shape), or null. */
  readonly provenance: Readonly<Record<string, unknown>> | null;
  /** One-based line in traces.jsonl. */
  readonly line: number;
}

/** Per-gate facts a pooled analysis keeps. */
export interface GateInfo {
  /** Gate id from gate.json. */
  readonly gate_id: string;
  /** Directory the gate was read from. */
  readonly gate_dir: string;
  /** Cold-start or online gate. */
  readonly stage: "cold_start" | "online";
  /** Budget K of the gate's selection. */
  readonly budget_k: number;
  /** Seed of the gate's random masks; null when not recorded (an import). */
  readonly mask_seed: number | null;
  /** Probability that a column is present in a row; null when not recorded (an import). */
  readonly p_present: number | null;
  /** The gate's masked run. */
  readonly masked: RunRef;
  /**
   * Index into {@linkcode PairedDataset.checkpoints} of the gate's own bare
   * run; present only when checkpoints are pooled (`--pool-checkpoints`).
   */
  readonly checkpoint?: number;
}

/** One checkpoint of a pooled-checkpoints dataset: its bare run, which its gates are paired with. */
export interface CheckpointInfo {
  /** `provenance.checkpoint_id` of the bare run (with the run id when two bare runs share it). */
  readonly checkpoint_id: string;
  /** The checkpoint's bare run. */
  readonly bare: RunRef;
}

/**
 * A validated, paired gate (or several gates sharing one bare run) as typed
 * columns: one row per (gate, episode), the 0/1 design and, per metric,
 * masked, bare and delta values. This is what estimation consumes.
 */
export interface PairedDataset {
  /**
   * The bare run every gate is paired with; with pooled checkpoints, the
   * first gate's (each gate's own is in `checkpoints`).
   */
  readonly baseline: RunRef;
  /**
   * The bare runs of pooled checkpoints (`--pool-checkpoints`), in first-seen
   * gate order; absent when every gate shares one bare run.
   */
  readonly checkpoints?: readonly CheckpointInfo[];
  /** The gates pooled into the dataset, in the order given. */
  readonly gates: readonly GateInfo[];
  /** Design columns in gate.json order (slots, then versions); union over gates. */
  readonly columns: readonly DesignColumn[];
  /** `reward` first, then every reward component in manifest order. */
  readonly metrics: readonly string[];
  /** Number of rows. */
  readonly n: number;
  /** Number of columns. */
  readonly k: number;
  /** Row-major n x k 0/1 design matrix. */
  readonly design: Uint8Array;
  /** Metric values of the masked rows, by metric. */
  readonly masked: Readonly<Record<string, Float64Array>>;
  /** Metric values of the paired bare rows, by metric. */
  readonly bare: Readonly<Record<string, Float64Array>>;
  /** masked - bare, per row. */
  readonly delta: Readonly<Record<string, Float64Array>>;
  /** Episode of each row. */
  readonly episodes: readonly EpisodeKey[];
  /** Index into `gates` of each row. */
  readonly gateIndex: Uint16Array;
  /** Task cluster of each row, 0..clusterCount-1, by (split, task_id) in first-seen order. */
  readonly cluster: Int32Array;
  /** Number of distinct tasks (clusters). */
  readonly clusterCount: number;
}
