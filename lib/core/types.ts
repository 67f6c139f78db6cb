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
  readonly version_id: string;
  readonly slot_id: string;
  readonly chunk_id: string;
  readonly role: Role;
}

/** Identity of one episode: a planned (split, task, sample). */
export interface EpisodeKey {
  readonly split: string;
  readonly task_id: string;
  readonly sample_id: number;
}

/** `split/task_id/sample_id`, the episode label used in issues and tables. */
export function episodeLabel(e: EpisodeKey): string {
  return `${e.split}/${e.task_id}/${e.sample_id}`;
}

/** A run as referenced by outputs: id, directory and content hash. */
export interface RunRef {
  readonly run_id: string;
  readonly run_dir: string;
  /** sha256 over the manifest.json bytes followed by the traces.jsonl bytes. */
  readonly sha256: string;
}

/** One attempt of one episode, as read from traces.jsonl. */
export interface Attempt extends EpisodeKey {
  readonly attempt: number;
  readonly status: "completed" | "failed";
  readonly reward: number | null;
  readonly rewards: Readonly<Record<string, number>>;
  readonly success: boolean | null;
  readonly injected: readonly string[];
  readonly job_seed: number | null;
  readonly steps: number | null;
  readonly tokens: { readonly prompt: number; readonly completion: number } | null;
  readonly error: string | null;
  /** Per-attempt provenance as given (unknown shape), or null. */
  readonly provenance: Readonly<Record<string, unknown>> | null;
  /** One-based line in traces.jsonl. */
  readonly line: number;
}

/** Per-gate facts a pooled analysis keeps. */
export interface GateInfo {
  readonly gate_id: string;
  readonly gate_dir: string;
  readonly stage: "cold_start" | "online";
  readonly budget_k: number;
  readonly mask_seed: number;
  readonly p_present: number;
  readonly masked: RunRef;
}

/**
 * A validated, paired gate (or several gates sharing one bare run) as typed
 * columns: one row per (gate, episode), the 0/1 design and, per metric,
 * masked, bare and delta values. This is what estimation consumes.
 */
export interface PairedDataset {
  readonly baseline: RunRef;
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
  readonly masked: Readonly<Record<string, Float64Array>>;
  readonly bare: Readonly<Record<string, Float64Array>>;
  /** masked - bare, per row. */
  readonly delta: Readonly<Record<string, Float64Array>>;
  /** Episode of each row. */
  readonly episodes: readonly EpisodeKey[];
  /** Index into `gates` of each row. */
  readonly gateIndex: Uint16Array;
  /** Task cluster of each row, 0..clusterCount-1, by (split, task_id) in first-seen order. */
  readonly cluster: Int32Array;
  readonly clusterCount: number;
}
