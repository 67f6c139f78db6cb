/**
 * A loaded run as one Arrow IPC file: the attempts as typed columns, the
 * manifest and identity in the schema metadata. Round-trips
 * {@linkcode LoadedRun} exactly (values read back deep-equal those parsed).
 *
 * Format `gatelab.run-table/v2`, one column per field:
 *
 * | column | Arrow type |
 * |---|---|
 * | `split`, `task_id`, `status` | Dictionary<Utf8, Int32> |
 * | `sample_id`, `attempt`, `reward`, `job_seed`, `steps`, `line` | Int32 when every value fits exactly, else Float64 (null = null) |
 * | `success` | Bool |
 * | `injected` | List<Dictionary<Utf8, Int32>> |
 * | `tokens.prompt`, `tokens.completion` | Int32 or Float64 (both null when `tokens` is null) |
 * | `tokens.json` | Utf8, JSON of `tokens` only when it has keys besides prompt and completion |
 * | `error` | Dictionary<Utf8, Int32> |
 * | `provenance` | Dictionary<Utf8, Int32> of JSON texts |
 * | `rewards.<name>` | Int32 or Float64 per component, null where the attempt lacks it |
 *
 * Decoding reads the columns' buffers directly (typed arrays, validity
 * bitmaps, each dictionary's strings decoded once), so a cache hit is
 * several times faster than parsing the JSONL (bench/cache_decode.ts).
 * Attempts whose provenance texts are equal share one parsed (read-only)
 * provenance object.
 *
 * @module
 */
import {
  Bool,
  type Data,
  DataType,
  Dictionary,
  Field,
  Float64,
  Int32,
  List,
  makeData,
  makeVector,
  Schema,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
  type Vector,
} from "apache-arrow";
import type { Attempt } from "../core/types.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { RunManifest } from "../contract/manifest.ts";

/** Schema metadata key holding the run's identity and manifest (JSON). */
const META_KEY = "gatelab.run";
/** Prefix of the per-component reward columns. */
const REWARD_PREFIX = "rewards.";
/** The table format written and the only one read. */
export const RUN_TABLE_FORMAT = "gatelab.run-table/v2";

/** Identity stored with the table and checked on read. */
export interface RunTableMeta {
  readonly format: typeof RUN_TABLE_FORMAT;
  readonly key: string;
  readonly loader_version: string;
  readonly sha256: string;
  readonly rows: number;
  readonly reward_components: readonly string[];
  readonly manifest: RunManifest;
}

// ---------------------------------------------------------------- encoding

const encoder = new TextEncoder();

function validityBitmap(n: number, isValid: (i: number) => boolean): [Uint8Array, number] {
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (isValid(i)) bitmap[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return [bitmap, nulls];
}

/** Whether `x` is stored exactly by Int32 (an integer in range, not -0). */
function isInt32(x: number): boolean {
  return (x | 0) === x && !Object.is(x, -0);
}

/**
 * A numeric column: Int32 when every value is an Int32 (smaller, and read
 * back as small integers without boxing), else Float64. Both are exact.
 */
function numberData(values: readonly (number | null)[]): Data<Float64 | Int32> {
  const n = values.length;
  const [nullBitmap, nullCount] = validityBitmap(n, (i) => values[i] !== null);
  if (values.every((x) => x === null || isInt32(x))) {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) data[i] = values[i] ?? 0;
    return makeData({ type: new Int32(), length: n, nullCount, nullBitmap, data });
  }
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = values[i] ?? 0;
  return makeData({ type: new Float64(), length: n, nullCount, nullBitmap, data });
}

function utf8Data(values: readonly (string | null)[]): Data<Utf8> {
  const n = values.length;
  const parts = values.map((v) => encoder.encode(v ?? ""));
  const valueOffsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + parts[i]!.length;
  const data = new Uint8Array(valueOffsets[n]!);
  for (let i = 0; i < n; i++) data.set(parts[i]!, valueOffsets[i]!);
  const [nullBitmap, nullCount] = validityBitmap(n, (i) => values[i] !== null);
  return makeData({ type: new Utf8(), length: n, nullCount, nullBitmap, valueOffsets, data });
}

/**
 * Distinct strings in first-seen order, as a dictionary-encoded column.
 * `id` is the IPC dictionary id, given explicitly so that encoding the same
 * run twice writes the same bytes (Arrow would number them process-wide).
 */
function dictionaryData(
  values: readonly (string | null)[],
  id: number,
): Data<Dictionary<Utf8, Int32>> {
  const n = values.length;
  const index = new Map<string, number>();
  const indices = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    let k = index.get(v);
    if (k === undefined) index.set(v, k = index.size);
    indices[i] = k;
  }
  for (const s of index.keys()) {
    if (!s.isWellFormed()) {
      throw new RangeError(
        `Cannot encode run table: ${JSON.stringify(s)} is not well-formed UTF-16 (lone surrogate)`,
      );
    }
  }
  const [nullBitmap, nullCount] = validityBitmap(n, (i) => values[i] !== null);
  return makeData({
    type: new Dictionary(new Utf8(), new Int32(), id),
    length: n,
    nullCount,
    nullBitmap,
    data: indices,
    dictionary: makeVector(utf8Data([...index.keys()])),
  });
}

function injectedData(
  lists: readonly (readonly string[])[],
  id: number,
): Data<List<Dictionary<Utf8, Int32>>> {
  const n = lists.length;
  const valueOffsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + lists[i]!.length;
  const child = dictionaryData(lists.flat(), id);
  return makeData({
    type: new List(new Field("item", child.type, false)),
    length: n,
    nullCount: 0,
    valueOffsets,
    child,
  });
}

function boolData(values: readonly (boolean | null)[]): Data<Bool> {
  const n = values.length;
  const [data] = validityBitmap(n, (i) => values[i] === true);
  const [nullBitmap, nullCount] = validityBitmap(n, (i) => values[i] !== null);
  return makeData({ type: new Bool(), length: n, nullCount, nullBitmap, data });
}

/** Whether `tokens` is exactly `{prompt, completion}` (the two Float64 columns hold it all). */
function plainTokens(t: NonNullable<Attempt["tokens"]>): boolean {
  const keys = Object.keys(t);
  return keys.length === 2 && "prompt" in t && "completion" in t;
}

/**
 * Encodes a loaded run as Arrow IPC (file format) bytes, format
 * `gatelab.run-table/v2` (columns in the module documentation).
 *
 * @param run The run as read by `readRun`.
 * @param identity Cache key and loader version recorded in the metadata.
 * @returns The IPC bytes.
 * @throws {RangeError} If a string (split, task id, status, error, injected
 * version) is not well-formed UTF-16: Arrow's Utf8 cannot hold a lone
 * surrogate exactly.
 *
 * @example
 * ```ts
 * import { decodeRunTable, encodeRunTable } from "./run_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { dir: "r", sha256: "00", manifest: { format: "gatelab.run/v1" } as never, attempts: [] };
 * const bytes = encodeRunTable(run, { key: "k", loaderVersion: "v" });
 * deepEqual(decodeRunTable(bytes, "r")?.meta.key, "k");
 * ```
 */
export function encodeRunTable(
  run: LoadedRun,
  identity: { readonly key: string; readonly loaderVersion: string },
): Uint8Array {
  const a = run.attempts;
  const components: string[] = [];
  const seen = new Set<string>();
  for (const attempt of a) {
    for (const name of Object.keys(attempt.rewards)) {
      if (!seen.has(name)) seen.add(name), components.push(name);
    }
  }
  const data: Record<string, Data<DataType>> = {
    split: dictionaryData(a.map((x) => x.split), 0),
    task_id: dictionaryData(a.map((x) => x.task_id), 1),
    sample_id: numberData(a.map((x) => x.sample_id)),
    attempt: numberData(a.map((x) => x.attempt)),
    status: dictionaryData(a.map((x) => x.status), 2),
    reward: numberData(a.map((x) => x.reward)),
    success: boolData(a.map((x) => x.success)),
    injected: injectedData(a.map((x) => x.injected), 3),
    job_seed: numberData(a.map((x) => x.job_seed)),
    steps: numberData(a.map((x) => x.steps)),
    "tokens.prompt": numberData(a.map((x) => x.tokens?.prompt ?? null)),
    "tokens.completion": numberData(a.map((x) => x.tokens?.completion ?? null)),
    "tokens.json": utf8Data(
      a.map((x) => x.tokens === null || plainTokens(x.tokens) ? null : JSON.stringify(x.tokens)),
    ),
    error: dictionaryData(a.map((x) => x.error), 4),
    provenance: dictionaryData(
      a.map((x) => x.provenance === null ? null : JSON.stringify(x.provenance)),
      5,
    ),
    line: numberData(a.map((x) => x.line)),
  };
  for (const name of components) {
    data[REWARD_PREFIX + name] = numberData(a.map((x) => x.rewards[name] ?? null));
  }
  const columns: Record<string, Vector<DataType>> = {};
  for (const [name, d] of Object.entries(data)) columns[name] = makeVector(d);
  const meta: RunTableMeta = {
    format: RUN_TABLE_FORMAT,
    key: identity.key,
    loader_version: identity.loaderVersion,
    sha256: run.sha256,
    rows: a.length,
    reward_components: components,
    manifest: run.manifest,
  };
  const table = new Table(columns);
  const withMeta = new Table(
    new Schema(table.schema.fields, new Map([[META_KEY, JSON.stringify(meta)]])),
    table.batches,
  );
  return tableToIPC(withMeta, "file");
}

// ---------------------------------------------------------------- decoding
//
// Columns are read into flat typed arrays first (one pass per column, no
// per-row boxing), then the attempts are built in one loop over rows.

/**
 * Strict UTF-8 that keeps a leading U+FEFF: by default a TextDecoder drops
 * a byte-order mark at the start of its input, and every string here is
 * decoded on its own, so a task id "\uFEFFt1" came back as "t1".
 */
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Thrown inside decoding; the caller turns any throw into `null`. */
function bad(what: string): never {
  throw new Error(`Cannot decode run table: ${what}`);
}

/** Marks nulls of a chunk (as Arrow's own `getValid`) into `isNull` from `at`. */
function markNulls(d: Data, isNull: Uint8Array, at: number): void {
  const bitmap = d.nullBitmap;
  if (d.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return;
  for (let i = 0; i < d.length; i++) {
    const pos = d.offset + i;
    if ((bitmap[pos >> 3]! & (1 << (pos & 7))) === 0) isNull[at + i] = 1;
  }
}

/** A numeric column: `values[i]`, or null where `isNull[i]` is 1. */
interface NumberColumn {
  readonly values: Float64Array | Int32Array;
  readonly isNull: Uint8Array | null;
}

/** A string column: `strings[codes[i]]`, or null where the code is -1. */
interface StringColumn {
  readonly strings: readonly string[];
  readonly codes: Int32Array;
}

type Columns = ReadonlyMap<string, Vector>;

function chunks(columns: Columns, name: string): readonly Data[] {
  return (columns.get(name) ?? bad(`missing column ${name}`)).data;
}

function numberColumn(columns: Columns, name: string, n: number): NumberColumn {
  const parts = chunks(columns, name);
  for (const d of parts) {
    const v: unknown = d.values;
    if (!(v instanceof Float64Array || v instanceof Int32Array)) {
      bad(`${name} is not Float64 or Int32`);
    }
    if (v.length < d.length) bad(`short ${name}`);
  }
  const anyNull = parts.some((d) => d.nullCount > 0);
  const isNull = anyNull ? new Uint8Array(n) : null;
  if (parts.length === 1) {
    const d = parts[0]!;
    if (isNull) markNulls(d, isNull, 0);
    return { values: (d.values as Float64Array | Int32Array).subarray(0, d.length), isNull };
  }
  const values = new Float64Array(n);
  let at = 0;
  for (const d of parts) {
    if (at + d.length > n) bad(`long ${name}`);
    values.set((d.values as Float64Array | Int32Array).subarray(0, d.length), at);
    if (isNull) markNulls(d, isNull, at);
    at += d.length;
  }
  return { values, isNull };
}

/** Strings of one Utf8 chunk appended to `strings`; codes set from `at`. */
function utf8Chunk(d: Data, strings: string[], codes: Int32Array, at: number): void {
  if (!DataType.isUtf8(d.type)) bad("expected Utf8");
  if (d.length === 0) return;
  const offsets = d.valueOffsets as Int32Array | undefined;
  const bytes = d.values as Uint8Array | undefined;
  if (!offsets || !bytes || offsets.length < d.length + 1) bad("bad Utf8 buffers");
  const isNull = new Uint8Array(d.length);
  markNulls(d, isNull, 0);
  // One decode for the chunk; slicing it by byte offsets is exact when it is ASCII.
  const start = offsets[0]!, end = offsets[d.length]!;
  const whole = decoder.decode(bytes.subarray(start, end));
  const ascii = whole.length === end - start;
  for (let i = 0; i < d.length; i++) {
    if (isNull[i]) {
      codes[at + i] = -1;
      continue;
    }
    const a = offsets[i]!, b = offsets[i + 1]!;
    codes[at + i] = strings.length;
    strings.push(ascii ? whole.slice(a - start, b - start) : decoder.decode(bytes.subarray(a, b)));
  }
}

/**
 * Reads Utf8 or Dictionary<Utf8, Int32> chunks of `n` rows in total into
 * one string column; each dictionary is decoded once.
 */
function stringChunks(parts: readonly Data[], n: number, name: string): StringColumn {
  const strings: string[] = [];
  const codes = new Int32Array(n);
  const base = new Map<Vector, number>();
  let at = 0;
  for (const d of parts) {
    if (at + d.length > n) bad(`long ${name}`);
    if (DataType.isUtf8(d.type)) utf8Chunk(d, strings, codes, at);
    else {
      const dict = d.dictionary;
      const indices: unknown = d.values;
      if (!DataType.isDictionary(d.type) || !dict || !(indices instanceof Int32Array)) {
        bad(`${name} is not Utf8 or Dictionary<Utf8, Int32>`);
      }
      let offset = base.get(dict);
      if (offset === undefined) {
        base.set(dict, offset = strings.length);
        let k = 0;
        for (const c of dict.data) k += c.length;
        const dictCodes = new Int32Array(k);
        let j = 0;
        for (const c of dict.data) utf8Chunk(c, strings, dictCodes, j), j += c.length;
        if (dictCodes.includes(-1)) bad(`null in the dictionary of ${name}`);
      }
      const size = strings.length - offset;
      const isNull = new Uint8Array(d.length);
      markNulls(d, isNull, 0);
      for (let i = 0; i < d.length; i++) {
        const k = indices[i]!;
        if (isNull[i]) codes[at + i] = -1;
        else if (k >= 0 && k < size) codes[at + i] = offset + k;
        else bad(`dictionary index out of range in ${name}`);
      }
    }
    at += d.length;
  }
  if (at !== n) bad(`short ${name}`);
  return { strings, codes };
}

function stringColumn(columns: Columns, name: string, n: number): StringColumn {
  return stringChunks(chunks(columns, name), n, name);
}

function requiredStrings(columns: Columns, name: string, n: number): StringColumn {
  const col = stringColumn(columns, name, n);
  if (col.codes.includes(-1)) bad(`null in ${name}`);
  return col;
}

function requiredNumbers(columns: Columns, name: string, n: number): Float64Array | Int32Array {
  const col = numberColumn(columns, name, n);
  if (col.isNull !== null && col.isNull.includes(1)) bad(`null in ${name}`);
  return col.values;
}

/** Bool column as -1 (null), 0 (false), 1 (true). */
function boolColumn(columns: Columns, name: string, n: number): Int8Array {
  const out = new Int8Array(n);
  let at = 0;
  for (const d of chunks(columns, name)) {
    if (!DataType.isBool(d.type) || !(d.values instanceof Uint8Array)) bad(`${name} is not Bool`);
    if (at + d.length > n) bad(`long ${name}`);
    const bits = d.values;
    const isNull = new Uint8Array(d.length);
    markNulls(d, isNull, 0);
    for (let i = 0; i < d.length; i++) {
      const pos = d.offset + i;
      out[at + i] = isNull[i] ? -1 : (bits[pos >> 3]! >> (pos & 7)) & 1;
    }
    at += d.length;
  }
  if (at !== n) bad(`short ${name}`);
  return out;
}

/** List<Utf8 or Dictionary> as row offsets into one flat string column of items. */
function listColumn(
  columns: Columns,
  name: string,
  n: number,
): { readonly offsets: Int32Array; readonly items: StringColumn } {
  const parts = chunks(columns, name);
  const offsets = new Int32Array(n + 1);
  const children: Data[] = [];
  let at = 0, items = 0;
  for (const d of parts) {
    const o = d.valueOffsets as Int32Array | undefined;
    const child = d.children[0];
    if (!DataType.isList(d.type) || !o || !child) bad(`${name} is not a List`);
    if (d.nullCount !== 0) bad(`null in ${name}`);
    if (at + d.length > n || (d.length > 0 && o.length < d.length + 1)) bad(`bad ${name}`);
    if (d.length === 0) continue;
    // Items of this chunk are child[o[0] .. o[length]); keep just those.
    const first = o[0]!, last = o[d.length]!;
    if (first < 0 || last < first || last > child.length) bad(`bad offsets in ${name}`);
    for (let i = 0; i < d.length; i++) {
      const len = o[i + 1]! - o[i]!;
      if (len < 0) bad(`bad offsets in ${name}`);
      offsets[at + i + 1] = offsets[at + i]! + len;
    }
    children.push(child.slice(first, last - first));
    at += d.length, items += last - first;
  }
  if (at !== n) bad(`short ${name}`);
  const flat = stringChunks(children, items, name);
  if (flat.codes.includes(-1)) bad(`null item in ${name}`);
  return { offsets, items: flat };
}

/**
 * Decodes bytes written by {@linkcode encodeRunTable}. Returns `null` for
 * anything else (truncated, corrupt, foreign, older-format or inconsistent
 * bytes), so a cache can treat it as a miss.
 *
 * @param bytes Arrow IPC file bytes.
 * @param dir Directory recorded as the run's `dir`.
 * @returns The run and the stored identity, or null.
 *
 * @example
 * ```ts
 * import { decodeRunTable } from "./run_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(decodeRunTable(new Uint8Array([1, 2, 3]), "r"), null);
 * ```
 */
export function decodeRunTable(
  bytes: Uint8Array,
  dir: string,
): { run: LoadedRun; meta: RunTableMeta } | null {
  try {
    const table = tableFromIPC(bytes);
    const metaText = table.schema.metadata.get(META_KEY);
    if (metaText === undefined) return null;
    const meta = JSON.parse(metaText) as RunTableMeta;
    const n = table.numRows;
    if (meta.format !== RUN_TABLE_FORMAT || meta.rows !== n) return null;
    const columns = new Map<string, Vector>();
    for (const field of table.schema.fields) {
      const v = table.getChild(field.name);
      if (v) columns.set(field.name, v);
    }
    return {
      run: { dir, manifest: meta.manifest, sha256: meta.sha256, attempts: rows(columns, meta, n) },
      meta,
    };
  } catch {
    return null;
  }
}

/** Builds the attempts from the columns (throws on anything inconsistent). */
function rows(columns: Columns, meta: RunTableMeta, n: number): Attempt[] {
  const split = requiredStrings(columns, "split", n);
  const task = requiredStrings(columns, "task_id", n);
  const status = requiredStrings(columns, "status", n);
  for (const s of status.strings) if (s !== "completed" && s !== "failed") bad("bad status");
  const sample = requiredNumbers(columns, "sample_id", n);
  const attemptNo = requiredNumbers(columns, "attempt", n);
  const line = requiredNumbers(columns, "line", n);
  const reward = numberColumn(columns, "reward", n), success = boolColumn(columns, "success", n);
  const injected = listColumn(columns, "injected", n);
  const jobSeed = numberColumn(columns, "job_seed", n), steps = numberColumn(columns, "steps", n);
  const prompt = numberColumn(columns, "tokens.prompt", n);
  const completion = numberColumn(columns, "tokens.completion", n);
  const tokensJson = stringColumn(columns, "tokens.json", n);
  const error = stringColumn(columns, "error", n);
  const provenanceText = stringColumn(columns, "provenance", n);
  // Provenance repeats: parse each distinct text once (attempts share the object).
  const provenance = provenanceText.strings.map((s) =>
    JSON.parse(s) as NonNullable<Attempt["provenance"]>
  );
  const rewardColumns = meta.reward_components.map((name) =>
    [name, numberColumn(columns, REWARD_PREFIX + name, n)] as const
  );
  const num = (c: NumberColumn, i: number): number | null =>
    c.isNull !== null && c.isNull[i] === 1 ? null : c.values[i]!;
  const str = (c: StringColumn, i: number): string | null => {
    const k = c.codes[i]!;
    return k < 0 ? null : c.strings[k]!;
  };

  const items = injected.items, offsets = injected.offsets;
  const rewardNames = rewardColumns.map(([name]) => name);
  const rewardCols = rewardColumns.map(([, c]) => c);
  const rewardCount = rewardNames.length;
  const rewardTemplate: Record<string, number> = {};
  for (const name of rewardNames) rewardTemplate[name] = 0;
  // One call per row (not one long loop): V8 optimises a small hot function
  // early, where a 100k-iteration loop body runs unoptimised for a long
  // time in a fresh process (measured: 500 ms vs 120 ms).
  const attemptAt = (i: number): Attempt => {
    let present = 0;
    for (let k = 0; k < rewardCount; k++) {
      const c = rewardCols[k]!;
      if (c.isNull === null || c.isNull[i] === 0) present++;
    }
    let rewards: Record<string, number>;
    if (present === rewardCount) {
      // Every component present (the usual case): clone a template of the
      // final shape and overwrite its values, instead of adding keys one
      // by one (a megamorphic transition per key).
      rewards = { ...rewardTemplate };
      for (let k = 0; k < rewardCount; k++) rewards[rewardNames[k]!] = rewardCols[k]!.values[i]!;
    } else {
      rewards = {};
      for (let k = 0; k < rewardCount; k++) {
        const c = rewardCols[k]!;
        if (c.isNull === null || c.isNull[i] === 0) rewards[rewardNames[k]!] = c.values[i]!;
      }
    }
    const from = offsets[i]!, len = offsets[i + 1]! - from;
    const list: string[] = new Array(len);
    for (let j = 0; j < len; j++) list[j] = items.strings[items.codes[from + j]!]!;
    const tj = tokensJson.codes[i]!, p = num(prompt, i), c = num(completion, i);
    const tokens: Attempt["tokens"] = tj >= 0
      ? JSON.parse(tokensJson.strings[tj]!)
      : p === null || c === null
      ? null
      : { prompt: p, completion: c };
    const pk = provenanceText.codes[i]!, b = success[i]!;
    return {
      split: split.strings[split.codes[i]!]!,
      task_id: task.strings[task.codes[i]!]!,
      sample_id: sample[i]!,
      attempt: attemptNo[i]!,
      status: status.strings[status.codes[i]!] as Attempt["status"],
      reward: num(reward, i),
      rewards,
      success: b < 0 ? null : b === 1,
      injected: list,
      job_seed: num(jobSeed, i),
      steps: num(steps, i),
      tokens,
      error: str(error, i),
      provenance: pk < 0 ? null : provenance[pk]!,
      line: line[i]!,
    };
  };
  const attempts: Attempt[] = new Array(n);
  for (let i = 0; i < n; i++) attempts[i] = attemptAt(i);
  return attempts;
}
