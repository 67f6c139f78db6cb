import type { AssignmentLine } from "../contract/assignment.ts";
import type { EpisodeCursor } from "./attempt_table.ts";
import { GrowingColumn, StringIds } from "./columns.ts";

/** One assignment with its one-based line in assignments.jsonl. */
export type LoadedAssignment = AssignmentLine & { readonly line: number };

/** The keys of a plain assignment line, in order (others keep their line whole). */
const PLAIN_KEYS = ["split", "task_id", "sample_id", "slots"];

/**
 * A gate's assignment lines as columns, in file order: episode, line, and
 * per line its slots' names (a shape shared by the lines that list the same
 * slots in the same order) and version ids (-1 for `null`), instead of one
 * object per line. `get(i)` builds the {@linkcode LoadedAssignment} the
 * reader built before the columns (`toArray()` all of them); a line with
 * other keys is kept as that object.
 *
 * @example
 * ```ts
 * import { AssignmentTable } from "./assignment_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = new AssignmentTable();
 * t.pushLine({ split: "val", task_id: "a", sample_id: 0, slots: { s1: "v1", s2: null } }, 2);
 * deepEqual([t.slotNames(0), t.versionAt(0, 0), t.versionAt(0, 1), t.lineOf(0)], [["s1", "s2"], "v1", null, 2]);
 * deepEqual(t.get(0), { split: "val", task_id: "a", sample_id: 0, slots: { s1: "v1", s2: null }, line: 2 });
 * ```
 */
export class AssignmentTable {
  /** The strings the id columns refer to (shared with the other files of a validation). */
  readonly ids: StringIds;
  readonly #split = new GrowingColumn((n) => new Int32Array(n));
  readonly #task = new GrowingColumn((n) => new Int32Array(n));
  readonly #sample = new GrowingColumn((n) => new Float64Array(n));
  readonly #line = new GrowingColumn((n) => new Float64Array(n));
  readonly #shape = new GrowingColumn((n) => new Int32Array(n));
  readonly #start = new GrowingColumn((n) => new Float64Array(n));
  readonly #versions = new GrowingColumn((n) => new Int32Array(n));
  readonly #shapes: { names: string[]; has: Set<string> }[] = [];
  readonly #shapeOf = new Map<string, number>();
  readonly #objects = new Map<number, LoadedAssignment>();
  #lastShape = -1;

  /** @param ids The string ids to share (a new set when not given). */
  constructor(ids: StringIds = new StringIds()) {
    this.ids = ids;
  }

  /** A table of assignments given as objects (tests): each is kept as given. */
  static from(assignments: readonly LoadedAssignment[], ids?: StringIds): AssignmentTable {
    const table = new AssignmentTable(ids);
    for (const a of assignments) table.#push(a, a.line, a);
    return table;
  }

  /** Number of assignment lines. */
  get length(): number {
    return this.#line.length;
  }

  /**
   * Appends an assignment line that passed the schema, read at `line`.
   * `plain`: the line's object is exactly what the fast structural check
   * accepted (else it is kept whole, as the reader built it before).
   */
  pushLine(a: AssignmentLine, line: number, plain = true): void {
    this.#push(a, line, null);
    // A slot named __proto__: kept whole, as a runtime with Object.prototype.__proto__ would
    // not rebuild it by assignment.
    if (plain && hasPlainKeys(a) && !Object.hasOwn(a.slots, "__proto__")) return;
    const i = this.length - 1;
    const slots: Record<string, string | null> = a.slots;
    for (const key in slots) {
      const version = slots[key]!;
      if (version !== null) slots[key] = this.ids.strings[this.ids.word(version)]!;
    }
    this.#objects.set(i, { ...a, split: this.splitOf(i), task_id: this.taskOf(i), line });
  }

  #push(a: AssignmentLine, line: number, whole: LoadedAssignment | null): void {
    if (whole !== null) this.#objects.set(this.length, whole);
    this.#split.push(this.ids.word(a.split));
    this.#task.push(this.ids.id(a.task_id));
    this.#sample.push(a.sample_id);
    this.#line.push(line);
    this.#start.push(this.#versions.length);
    const slots = a.slots;
    const last = this.#lastShape >= 0 ? this.#shapes[this.#lastShape]!.names : null;
    let matched = 0, same = last !== null;
    for (const key in slots) {
      const version = slots[key]!;
      this.#versions.push(version === null ? -1 : this.ids.word(version));
      if (same && last![matched] === key) matched++;
      else same = false;
    }
    if (same && matched === last!.length) {
      this.#shape.push(this.#lastShape);
      return;
    }
    const names = Object.keys(slots);
    const key = names.join("\u0000");
    let shape = this.#shapeOf.get(key);
    if (shape === undefined) {
      shape = this.#shapes.length;
      this.#shapes.push({ names, has: new Set(names) });
      this.#shapeOf.set(key, shape);
    }
    this.#shape.push(this.#lastShape = shape);
  }

  /** Drops the columns' spare capacity (call once the last line is read). */
  trim(): this {
    for (
      const c of [
        this.#split,
        this.#task,
        this.#sample,
        this.#line,
        this.#shape,
        this.#start,
        this.#versions,
      ] as GrowingColumn<Float64Array | Int32Array>[]
    ) {
      c.values = c.trimmed();
    }
    return this;
  }

  /** The split of line i. */
  splitOf(i: number): string {
    return this.ids.strings[this.#split.values[i]!]!;
  }

  /** The task id of line i. */
  taskOf(i: number): string {
    return this.ids.strings[this.#task.values[i]!]!;
  }

  /** Sets `key` to line i's episode and returns it. */
  keyOf(i: number, key: EpisodeCursor): EpisodeCursor {
    key.split = this.splitOf(i);
    key.task_id = this.taskOf(i);
    key.sample_id = this.#sample.values[i]!;
    return key;
  }

  /** The 1-based assignments.jsonl line of entry i. */
  lineOf(i: number): number {
    return this.#line.values[i]!;
  }

  /** The shape id of line i's slots (equal ids: equal `slotNames`). */
  shapeOf(i: number): number {
    return this.#shape.values[i]!;
  }

  /** The slots line i assigns, in key order. */
  slotNames(i: number): readonly string[] {
    return this.#shapes[this.#shape.values[i]!]!.names;
  }

  /** Whether line i assigns slot `name` (a version or null). */
  hasSlot(i: number, name: string): boolean {
    return this.#shapes[this.#shape.values[i]!]!.has.has(name);
  }

  /** The version line i assigns to its `position`-th slot (`slotNames` order), or null. */
  versionAt(i: number, position: number): string | null {
    const id = this.#versions.values[this.#start.values[i]! + position]!;
    return id < 0 ? null : this.ids.strings[id]!;
  }

  /** The string id of the version line i assigns to its `position`-th slot, or -1 for null. */
  versionIdAt(i: number, position: number): number {
    return this.#versions.values[this.#start.values[i]! + position]!;
  }

  /** Line i as an object. */
  get(i: number): LoadedAssignment {
    const whole = this.#objects.get(i);
    if (whole !== undefined) return whole;
    const names = this.slotNames(i);
    const slots: Record<string, string | null> = {};
    for (let p = 0; p < names.length; p++) slots[names[p]!] = this.versionAt(i, p);
    return {
      split: this.splitOf(i),
      task_id: this.taskOf(i),
      sample_id: this.#sample.values[i]!,
      slots,
      line: this.#line.values[i]!,
    };
  }

  /** Every line as an object, in file order. */
  toArray(): LoadedAssignment[] {
    const out: LoadedAssignment[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.get(i);
    return out;
  }
}

/** Whether the line's keys are exactly split, task_id, sample_id, slots in that order. */
function hasPlainKeys(a: object): boolean {
  let n = 0;
  for (const k in a) {
    if (k !== PLAIN_KEYS[n]) return false;
    n++;
  }
  return n === PLAIN_KEYS.length;
}
