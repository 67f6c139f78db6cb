import type { Attempt } from "../core/types.ts";
import type { TraceLine } from "../contract/trace.ts";
import { GrowingColumn, StringIds } from "./columns.ts";

const FAILED = 1, REWARD_NULL = 2, SUCCESS_FALSE = 4, SUCCESS_TRUE = 8;
const SEED_NULL = 16, STEPS_NULL = 32, TOKENS_NULL = 64;

const NONE: readonly string[] = Object.freeze([]);

/** A mutable episode key, reused for lookups (maps copy its fields, never keep it). */
export interface EpisodeCursor {
  split: string;
  task_id: string;
  sample_id: number;
}

/** An {@linkcode AttemptTable} as a worker posts it (see `AttemptTable.posted`). */
export interface PostedAttemptTable {
  /** The columns, trimmed, in the table's own order. */
  readonly columns: readonly (Float64Array | Int32Array | Uint8Array)[];
  /** The strings the id columns refer to, by id. */
  readonly strings: readonly string[];
  /** The component names of each shape. */
  readonly shapes: readonly string[][];
  /** The attempts kept whole, with their indices, in file order. */
  readonly whole: readonly (readonly [number, Attempt])[];
  /** The columns' buffers, for `postMessage`'s transfer list. */
  readonly transfer: readonly ArrayBuffer[];
}

/**
 * A run's attempts as columns, one entry per trace line that passed the
 * schema, in file order: what validation reads of each attempt (episode,
 * status, rewards, injected versions, job seed, line) in typed arrays, with
 * ids for strings, instead of one object per line. A million attempts take
 * about 170 MB here (six reward components, seven injected versions)
 * against about 500 MB as objects. `get(i)` builds the
 * {@linkcode Attempt} of entry i, equal to the object the reader built
 * before the columns (`toArray()` all of them); an attempt with provenance,
 * an error or tokens with other keys is kept as that object too.
 *
 * @example
 * ```ts
 * import { AttemptTable } from "./attempt_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = new AttemptTable();
 * t.pushLine({ split: "val", task_id: "a", sample_id: 0, attempt: 0, status: "completed", reward: 0.5, rewards: { r_strict: 0.5, r_x: "n/a" }, injected: ["v1"] }, 3);
 * deepEqual([t.length, t.rewardOf(0), t.componentOf(0, "r_x"), t.injectedOf(0), t.lineOf(0)], [1, 0.5, undefined, ["v1"], 3]);
 * deepEqual(t.get(0).rewards, { r_strict: 0.5 });
 * ```
 */
export class AttemptTable {
  /** The strings the id columns refer to (shared with the other files of a validation). */
  readonly ids: StringIds;
  readonly #split = new GrowingColumn((n) => new Int32Array(n));
  readonly #task = new GrowingColumn((n) => new Int32Array(n));
  readonly #sample = new GrowingColumn((n) => new Float64Array(n));
  readonly #attempt = new GrowingColumn((n) => new Float64Array(n));
  readonly #line = new GrowingColumn((n) => new Float64Array(n));
  readonly #flags = new GrowingColumn((n) => new Uint8Array(n));
  readonly #reward = new GrowingColumn((n) => new Float64Array(n));
  readonly #seed = new GrowingColumn((n) => new Float64Array(n));
  readonly #steps = new GrowingColumn((n) => new Float64Array(n));
  readonly #prompt = new GrowingColumn((n) => new Float64Array(n));
  readonly #completion = new GrowingColumn((n) => new Float64Array(n));
  /** Per attempt: its reward components' shape (the finite components' names, in order). */
  readonly #shape = new GrowingColumn((n) => new Int32Array(n));
  /** Per attempt: where its components' values start in #values. */
  readonly #valuesStart = new GrowingColumn((n) => new Float64Array(n));
  readonly #values = new GrowingColumn((n) => new Float64Array(n));
  /** Per attempt: where its injected version ids start in #injected. */
  readonly #injectedStart = new GrowingColumn((n) => new Float64Array(n));
  readonly #injected = new GrowingColumn((n) => new Int32Array(n));
  /** Component names per shape, and each name's position. */
  readonly #shapes: { names: string[]; at: Map<string, number> }[] = [];
  readonly #shapeOf = new Map<string, number>();
  /** Attempts kept whole: given as objects, or with provenance, an error or unusual tokens. */
  readonly #objects = new Map<number, Attempt>();
  #lastShape = -1;

  /** @param ids The string ids to share (a new set when not given). */
  constructor(ids: StringIds = new StringIds()) {
    this.ids = ids;
  }

  /**
   * A table of attempts given as objects (tests, the run cache): each is
   * kept as given, and `get(i)` returns it.
   */
  static from(attempts: readonly Attempt[], ids?: StringIds): AttemptTable {
    const table = new AttemptTable(ids);
    for (const a of attempts) table.#push(a, a.rewards, a.injected, a.tokens, a.line, a);
    return table;
  }

  /** Number of attempts. */
  get length(): number {
    return this.#flags.length;
  }

  /** Appends the attempt of a trace line that passed the schema, read at `line`. */
  pushLine(t: TraceLine, line: number): void {
    const tokens = t.tokens ?? null;
    this.#push(t, t.rewards, t.injected ?? NONE, tokens, line, null);
    const whole = (t.provenance !== undefined && t.provenance !== null) ||
      (t.error !== undefined && t.error !== null) || (tokens !== null && !plainTokens(tokens));
    if (whole) {
      const i = this.length - 1;
      this.#objects.set(i, attemptOf(t, line, this.splitOf(i), this.taskOf(i), this.injectedOf(i)));
    }
  }

  #push(
    t: Pick<TraceLine, "split" | "task_id" | "sample_id" | "attempt" | "status">,
    rewards: Readonly<Record<string, unknown>> | undefined,
    injected: readonly string[],
    tokens: { readonly prompt: number; readonly completion: number } | null,
    line: number,
    whole: Attempt | null,
  ): void {
    const a = t as Partial<TraceLine>;
    if (whole !== null) this.#objects.set(this.length, whole);
    this.#split.push(this.ids.word(t.split));
    this.#task.push(this.ids.id(t.task_id));
    this.#sample.push(t.sample_id);
    this.#attempt.push(t.attempt);
    this.#line.push(line);
    const reward = a.reward ?? null, success = a.success ?? null, seed = a.job_seed ?? null;
    const steps = a.steps ?? null;
    let flags = t.status === "failed" ? FAILED : 0;
    if (reward === null) flags |= REWARD_NULL;
    if (success !== null) flags |= success ? SUCCESS_TRUE : SUCCESS_FALSE;
    if (seed === null) flags |= SEED_NULL;
    if (steps === null) flags |= STEPS_NULL;
    if (tokens === null) flags |= TOKENS_NULL;
    this.#flags.push(flags);
    this.#reward.push(reward ?? 0);
    this.#seed.push(seed ?? 0);
    this.#steps.push(steps ?? 0);
    this.#prompt.push(tokens?.prompt ?? 0);
    this.#completion.push(tokens?.completion ?? 0);
    this.#valuesStart.push(this.#values.length);
    this.#shape.push(this.#pushRewards(rewards));
    this.#injectedStart.push(this.#injected.length);
    for (const v of injected) this.#injected.push(this.ids.word(v));
  }

  /** Pushes the finite components' values, in key order, and returns their shape. */
  #pushRewards(raw: Readonly<Record<string, unknown>> | undefined): number {
    // Usually the shape of the line before: compared name by name without building a key.
    const last = this.#lastShape >= 0 ? this.#shapes[this.#lastShape]!.names : null;
    let matched = 0, same = last !== null;
    const start = this.#values.length;
    for (const k in raw) {
      const v = raw[k];
      if (typeof v !== "number" || !Number.isFinite(v)) continue;
      if (same && last![matched] === k) matched++;
      else same = false;
      this.#values.push(v);
    }
    if (same && matched === last!.length) return this.#lastShape;
    const names: string[] = [];
    for (const k in raw) {
      const v = raw[k];
      if (typeof v === "number" && Number.isFinite(v)) names.push(k);
    }
    const key = names.join("\u0000");
    let shape = this.#shapeOf.get(key);
    if (shape === undefined) {
      shape = this.#shapes.length;
      this.#shapes.push({ names, at: new Map(names.map((n, i) => [n, i])) });
      this.#shapeOf.set(key, shape);
    }
    if (this.#values.length - start !== names.length) throw new Error("unreachable: shape");
    return this.#lastShape = shape;
  }

  /** Drops the columns' spare capacity (call once the last line is read). */
  trim(): this {
    for (const c of this.#columns()) c.values = c.trimmed();
    return this;
  }

  /** Every column, in the order {@linkcode posted} lists them. */
  #columns(): GrowingColumn<Float64Array | Int32Array | Uint8Array>[] {
    return [
      this.#split,
      this.#task,
      this.#sample,
      this.#attempt,
      this.#line,
      this.#flags,
      this.#reward,
      this.#seed,
      this.#steps,
      this.#prompt,
      this.#completion,
      this.#shape,
      this.#valuesStart,
      this.#values,
      this.#injectedStart,
      this.#injected,
    ] as GrowingColumn<Float64Array | Int32Array | Uint8Array>[];
  }

  /**
   * The table as data a worker can post (`postMessage`, the columns'
   * buffers in `transfer`): trimmed columns, the strings its ids refer to,
   * the component shapes and the attempts kept whole. The table must not be
   * used once its buffers are transferred.
   */
  posted(): PostedAttemptTable {
    this.trim();
    const columns = this.#columns().map((c) => c.values);
    return {
      columns,
      strings: this.ids.strings,
      shapes: this.#shapes.map((s) => s.names),
      whole: [...this.#objects],
      transfer: [...new Set(columns.map((c) => c.buffer as ArrayBuffer))],
    };
  }

  /**
   * The table a worker posted ({@linkcode posted}), its ids rewritten into
   * `ids` so that each string is held once with the other files' (the same
   * attempts, as `get(i)` builds them, as the table that was posted).
   *
   * @param p What {@linkcode posted} gave.
   * @param ids The string ids to share (a new set when not given).
   * @returns The table.
   *
   * @example
   * ```ts
   * import { AttemptTable } from "./attempt_table.ts";
   * import { StringIds } from "./columns.ts";
   * import { deepEqual } from "node:assert/strict";
   * const t = new AttemptTable();
   * t.pushLine({ split: "val", task_id: "a", sample_id: 0, attempt: 0, status: "completed", reward: 0.5, rewards: { r_strict: 0.5 }, injected: ["v1"] }, 1);
   * const ids = new StringIds();
   * ids.id("b");
   * const copy = AttemptTable.fromPosted(structuredClone(t.posted()), ids);
   * deepEqual([copy.get(0), ids.strings], [t.get(0), ["b", "val", "a", "v1"]]);
   * ```
   */
  static fromPosted(p: Omit<PostedAttemptTable, "transfer">, ids?: StringIds): AttemptTable {
    const table = new AttemptTable(ids);
    const columns = table.#columns();
    if (p.columns.length !== columns.length) throw new Error("unreachable: posted columns");
    columns.forEach((c, i) => {
      c.values = p.columns[i]!;
      c.length = c.values.length;
    });
    const shared = table.ids, strings = p.strings.map((s) => shared.id(s));
    for (const c of [table.#split, table.#task, table.#injected]) {
      const v = c.values;
      for (let i = 0; i < v.length; i++) v[i] = strings[v[i]!]!;
    }
    for (const names of p.shapes) {
      table.#shapeOf.set(names.join("\u0000"), table.#shapes.length);
      table.#shapes.push({ names, at: new Map(names.map((n, i) => [n, i])) });
    }
    const held = (s: string) => shared.strings[shared.id(s)]!;
    for (const [i, a] of p.whole) {
      table.#objects.set(i, {
        ...a,
        split: held(a.split),
        task_id: held(a.task_id),
        injected: a.injected.map(held),
      });
    }
    return table;
  }

  /** The split of attempt i. */
  splitOf(i: number): string {
    return this.ids.strings[this.#split.values[i]!]!;
  }

  /** The task id of attempt i. */
  taskOf(i: number): string {
    return this.ids.strings[this.#task.values[i]!]!;
  }

  /** The sample id of attempt i. */
  sampleOf(i: number): number {
    return this.#sample.values[i]!;
  }

  /** Sets `key` to attempt i's episode and returns it. */
  keyOf(i: number, key: EpisodeCursor): EpisodeCursor {
    key.split = this.splitOf(i);
    key.task_id = this.taskOf(i);
    key.sample_id = this.#sample.values[i]!;
    return key;
  }

  /** Whether attempt i failed. */
  failed(i: number): boolean {
    return (this.#flags.values[i]! & FAILED) !== 0;
  }

  /** The 1-based traces.jsonl line of attempt i. */
  lineOf(i: number): number {
    return this.#line.values[i]!;
  }

  /** The reward of attempt i, or null. */
  rewardOf(i: number): number | null {
    return (this.#flags.values[i]! & REWARD_NULL) !== 0 ? null : this.#reward.values[i]!;
  }

  /** The job seed of attempt i, or null. */
  jobSeedOf(i: number): number | null {
    return (this.#flags.values[i]! & SEED_NULL) !== 0 ? null : this.#seed.values[i]!;
  }

  /** The shape of attempt i's finite reward components: their names in key order. */
  componentNames(i: number): readonly string[] {
    return this.#shapes[this.#shape.values[i]!]!.names;
  }

  /** The finite value of reward component `name` of attempt i, or undefined. */
  componentOf(i: number, name: string): number | undefined {
    const at = this.#shapes[this.#shape.values[i]!]!.at.get(name);
    return at === undefined ? undefined : this.#values.values[this.#valuesStart.values[i]! + at];
  }

  /** The value of attempt i's `position`-th finite component (in `componentNames(i)` order). */
  componentAt(i: number, position: number): number {
    return this.#values.values[this.#valuesStart.values[i]! + position]!;
  }

  /**
   * The reward columns as they are now (valid until the next push), for
   * readers of many attempts: attempt i's reward is `reward[i]` (0 when
   * null, see `rewardOf`) and its p-th finite component `values[start[i] + p]`.
   */
  rewardColumns(): {
    readonly reward: Float64Array;
    readonly start: Float64Array;
    readonly values: Float64Array;
  } {
    return {
      reward: this.#reward.values,
      start: this.#valuesStart.values,
      values: this.#values.values,
    };
  }

  /** The shape id of attempt i's components (equal ids: equal `componentNames`). */
  shapeOf(i: number): number {
    return this.#shape.values[i]!;
  }

  /** How many versions attempt i injected. */
  injectedCount(i: number): number {
    const end = i + 1 < this.length ? this.#injectedStart.values[i + 1]! : this.#injected.length;
    return end - this.#injectedStart.values[i]!;
  }

  /** The j-th version attempt i injected. */
  injectedAt(i: number, j: number): string {
    return this.ids.strings[this.#injected.values[this.#injectedStart.values[i]! + j]!]!;
  }

  /** The versions attempt i injected, in order. */
  injectedOf(i: number): readonly string[] {
    const n = this.injectedCount(i);
    if (n === 0) return NONE;
    const out: string[] = new Array(n);
    for (let j = 0; j < n; j++) out[j] = this.injectedAt(i, j);
    return out;
  }

  /** Whether attempt i records its own provenance. */
  hasProvenance(i: number): boolean {
    return this.#objects.get(i)?.provenance != null;
  }

  /** The indices of the attempts kept whole (in file order). */
  wholeIndices(): number[] {
    return [...this.#objects.keys()]; // set in file order
  }

  /** Attempt i as an object. */
  get(i: number): Attempt {
    const whole = this.#objects.get(i);
    if (whole !== undefined) return whole;
    const flags = this.#flags.values[i]!;
    const names = this.componentNames(i), start = this.#valuesStart.values[i]!;
    const rewards: Record<string, number> = {};
    for (let p = 0; p < names.length; p++) rewards[names[p]!] = this.#values.values[start + p]!;
    return {
      split: this.splitOf(i),
      task_id: this.taskOf(i),
      sample_id: this.#sample.values[i]!,
      attempt: this.#attempt.values[i]!,
      status: (flags & FAILED) !== 0 ? "failed" : "completed",
      reward: this.rewardOf(i),
      rewards,
      success: (flags & SUCCESS_TRUE) !== 0 ? true : (flags & SUCCESS_FALSE) !== 0 ? false : null,
      injected: this.injectedOf(i),
      job_seed: this.jobSeedOf(i),
      steps: (flags & STEPS_NULL) !== 0 ? null : this.#steps.values[i]!,
      tokens: (flags & TOKENS_NULL) !== 0
        ? null
        : { prompt: this.#prompt.values[i]!, completion: this.#completion.values[i]! },
      error: null,
      provenance: null,
      line: this.#line.values[i]!,
    };
  }

  /** Every attempt as an object, in file order. */
  toArray(): Attempt[] {
    const out: Attempt[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.get(i);
    return out;
  }
}

/** Whether tokens hold exactly `prompt` then `completion` (else the attempt is kept whole). */
function plainTokens(tokens: object): boolean {
  let n = 0;
  for (const k in tokens) {
    if (n === 0 ? k !== "prompt" : n === 1 ? k !== "completion" : true) return false;
    n++;
  }
  return n === 2;
}

/** The attempt of a trace line as an object (the reader's object before the columns). */
function attemptOf(
  t: TraceLine,
  line: number,
  split: string,
  task_id: string,
  injected: readonly string[],
): Attempt {
  return {
    split,
    task_id,
    sample_id: t.sample_id,
    attempt: t.attempt,
    status: t.status,
    reward: t.reward ?? null,
    rewards: finiteRewards(t.rewards),
    success: t.success ?? null,
    injected,
    job_seed: t.job_seed ?? null,
    steps: t.steps ?? null,
    tokens: t.tokens ?? null,
    error: t.error ?? null,
    provenance: t.provenance ?? null,
    line,
  };
}

function finiteRewards(raw: Record<string, unknown> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (!raw) return out;
  for (const k in raw) {
    const v = raw[k];
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  }
  return out;
}
