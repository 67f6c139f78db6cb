/**
 * Building blocks of the columnar readers (lib/load/attempt_table.ts,
 * lib/load/assignment_table.ts): typed columns that grow as lines are read,
 * and one id per distinct string.
 *
 * @module
 */

type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array;
type TypedOf<T extends Typed> = T extends Float64Array ? Float64Array
  : T extends Int32Array ? Int32Array
  : T extends Uint32Array ? Uint32Array
  : Uint8Array;

/**
 * A typed column that doubles its capacity as values are pushed; `trimmed()`
 * gives the values as a column of exactly their length.
 *
 * @example
 * ```ts
 * import { GrowingColumn } from "./columns.ts";
 * import { deepEqual } from "node:assert/strict";
 * const c = new GrowingColumn((n) => new Int32Array(n));
 * for (let i = 0; i < 100; i++) c.push(i * 2);
 * deepEqual([c.length, c.values[99], c.trimmed().length], [100, 198, 100]);
 * ```
 */
export class GrowingColumn<T extends Typed> {
  /** The values (its first `length` entries; the rest is spare capacity). */
  values: TypedOf<T>;
  /** Number of values pushed. */
  length = 0;
  readonly #make: (n: number) => T;

  /** @param make Allocates a column of n entries. */
  constructor(make: (n: number) => T, capacity = 1024) {
    this.#make = make;
    this.values = make(capacity) as unknown as TypedOf<T>;
  }

  /** Appends a value. */
  push(x: number): void {
    if (this.length === this.values.length) this.#grow();
    this.values[this.length++] = x;
  }

  #grow(): void {
    const next = this.#make(this.values.length * 2) as unknown as TypedOf<T>;
    next.set(this.values as never);
    this.values = next;
  }

  /** The values as a column of exactly their length (a copy when there is spare capacity). */
  trimmed(): TypedOf<T> {
    return this.length === this.values.length
      ? this.values
      : this.values.slice(0, this.length) as TypedOf<T>;
  }
}

/** Words {@linkcode StringIds.word} keeps in its small map. */
const MAX_WORDS = 4096;

/**
 * One id per distinct string, in first-seen order, shared by the files of a
 * validation: a run's and its gate's lines repeat the same splits, task ids
 * and version ids, which are then held once.
 *
 * @example
 * ```ts
 * import { StringIds } from "./columns.ts";
 * import { deepEqual } from "node:assert/strict";
 * const ids = new StringIds();
 * deepEqual([ids.id("a"), ids.id("b"), ids.id("a"), ids.strings], [0, 1, 0, ["a", "b"]]);
 * ```
 */
export class StringIds {
  /** The strings by id. */
  readonly strings: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #words = new Map<string, number>();

  /** The string's id (a new one the first time it is seen). */
  id(s: string): number {
    const seen = this.#ids.get(s);
    if (seen !== undefined) return seen;
    const id = this.strings.length;
    this.strings.push(s);
    this.#ids.set(s, id);
    return id;
  }

  /**
   * The id of a string of a small vocabulary (a split, a version id): the
   * same ids as {@linkcode id}, looked up first in a small map of such
   * words, which stays in the processor's cache where the map of every
   * task id does not.
   */
  word(s: string): number {
    const seen = this.#words.get(s);
    if (seen !== undefined) return seen;
    const id = this.id(s);
    if (this.#words.size < MAX_WORDS) this.#words.set(s, id);
    return id;
  }

  /** The id of a string already seen, or -1. */
  find(s: string): number {
    return this.#ids.get(s) ?? -1;
  }
}
