/**
 * The text of an import's JSON Lines files (traces.jsonl, assignments.jsonl),
 * the same bytes as JSON.stringify of each line's object, built from
 * precomputed pieces and joined into large pieces for the file writer: a
 * 200,000-row import writes 300,000 lines, and one object and one string
 * per line were most of its time (docs/import.md, Performance).
 *
 * @module
 */
import type { ImportRow } from "./rows.ts";

/** The trace fields of the contract, in order; an extra column named like one is `<name>_column`. */
const CONTRACT_TRACE_KEYS = new Set([
  "split",
  "task_id",
  "sample_id",
  "attempt",
  "status",
  "reward",
  "rewards",
  "injected",
  "job_seed",
  "error",
]);

/**
 * JSON Lines text as pieces of 4,096 lines each (about 1 MB for a trace
 * file): a line is added part by part, and every 4,096 lines the parts are
 * joined into one flat string (no rope of small strings kept alive until
 * writing, no string per line; a piece that large is allocated where the
 * garbage collector never copies it), so the file writer gets a few dozen
 * pieces instead of one per line.
 */
export class LineChunks {
  #pieces: string[] = [];
  #parts: string[] = [];
  #lines = 0;
  /** Adds text to the current line. */
  add(text: string): void {
    this.#parts.push(text);
  }
  /** Ends the current line. */
  end(): void {
    this.last("\n");
  }
  /** Adds the current line's last text, which ends with its line break. */
  last(text: string): void {
    this.#parts.push(text);
    if (++this.#lines === 4096) this.#flush();
  }
  /** Adds one whole line (without its line break). */
  push(line: string): void {
    this.#parts.push(line);
    this.end();
  }
  #flush(): void {
    this.#pieces.push(this.#parts.join(""));
    this.#parts = [];
    this.#lines = 0;
  }
  /** The pieces. */
  done(): string[] {
    if (this.#parts.length > 0) this.#flush();
    return this.#pieces;
  }
}

/** `,"sample_id":<s>,"slots":` for the first sample ids. */
export const SAMPLE_SLOTS = Array.from({ length: 64 }, (_, s) => `,"sample_id":${s},"slots":`);

/** JSON of a number as JSON.stringify writes it (`null` when not finite). */
const numberJson = (x: number) => (Number.isFinite(x) ? String(x) : "null");
/** JSON of a value that is usually a number. */
const valueJson = (v: unknown) =>
  typeof v === "number" ? numberJson(v) : v === null ? "null" : JSON.stringify(v);
/** An array index as a property key: JSON.stringify puts such keys first, whatever their order. */
const INDEX_KEY = /^(0|[1-9]\d*)$/;
/** Text JSON writes as it is between quotes: no quote, backslash, control or surrogate. */
// deno-lint-ignore no-control-regex -- the control characters are what JSON escapes
export const PLAIN_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * Writes a trace line into `out`: the same bytes as JSON.stringify of the
 * object {split, task_id, sample_id, attempt, status, reward, rewards,
 * injected, job_seed, error, ...extra} (an extra column named like a
 * contract field kept as `<name>_column`), from pieces: the keys' JSON
 * made once, numbers written as JSON writes them, a plain task id between
 * quotes as it is, the injected list's JSON given by the caller. A row
 * whose extra columns could reorder or repeat a key (an array-index name,
 * `__proto__`, or a `<field>_column` name) is written by JSON.stringify
 * itself.
 */
export function traceWriter(): (
  r: ImportRow,
  attempt: number,
  injected: readonly string[],
  injectedJson: string,
  out: LineChunks,
) => void {
  const keyPiece = new Map<string, string>();
  const piece = (k: string) => {
    let p = keyPiece.get(k);
    if (p === undefined) {
      p = `,${JSON.stringify(k)}:`;
      keyPiece.set(k, p);
    }
    return p;
  };
  const risky = (k: string) =>
    INDEX_KEY.test(k) || k === "__proto__" ||
    (k.endsWith("_column") && CONTRACT_TRACE_KEYS.has(k.slice(0, -7)));
  const riskyKey = new Map<string, boolean>();
  // A plain task id's quotes are in the pieces around it; one JSON must escape is written by
  // JSON.stringify with its own quotes.
  let lastSplit: string | null = null, plainHead = "", quotedHead = "";
  const headOf = (split: string, plain: boolean) => {
    if (split !== lastSplit) {
      lastSplit = split;
      quotedHead = `{"split":${JSON.stringify(split)},"task_id":`;
      plainHead = `${quotedHead}"`;
    }
    return plain ? plainHead : quotedHead;
  };
  const sampleAttempts = new Map<number, string>();
  const sampleAttempt = (plain: boolean, sample: number, attempt: number) => {
    const small = sample < 1024 && attempt < 1024 && sample >= 0 && attempt >= 0 &&
      Number.isInteger(sample) && Number.isInteger(attempt);
    const key = (sample * 1024 + attempt) * 2 + (plain ? 1 : 0);
    let text = small ? sampleAttempts.get(key) : undefined;
    if (text === undefined) {
      text = `${plain ? '"' : ""},"sample_id":${numberJson(sample)},"attempt":${
        numberJson(attempt)
      },"status":`;
      if (small) sampleAttempts.set(key, text);
    }
    return text;
  };
  const statusHeads = new Map<string, string>();
  const statusHead = (status: string) => {
    let h = statusHeads.get(status);
    if (h === undefined) statusHeads.set(status, h = `${JSON.stringify(status)},"reward":`);
    return h;
  };
  const rewardsHeads = new Map<string, string>();
  const rewardsHead = (k: string) => {
    let h = rewardsHeads.get(k);
    if (h === undefined) rewardsHeads.set(k, h = `,"rewards":{${piece(k).slice(1)}`);
    return h;
  };
  const tails = new Map<string, string>();
  const tailOf = (injectedJson: string) => {
    let t = tails.get(injectedJson);
    if (t === undefined) {
      t = `},"injected":${injectedJson},"job_seed":null,"error":null}\n`;
      if (tails.size < 1 << 16) tails.set(injectedJson, t);
    }
    return t;
  };
  return (r, attempt, injected, injectedJson, out) => {
    for (const k in r.extra) {
      let bad = riskyKey.get(k);
      if (bad === undefined) riskyKey.set(k, bad = risky(k));
      if (bad) {
        out.push(JSON.stringify(traceObject(r, attempt, injected)));
        return;
      }
    }
    // Few parts per line: the constant text between the values is cached with its neighbours.
    const plain = PLAIN_TEXT.test(r.task_id);
    out.add(headOf(r.split, plain));
    out.add(plain ? r.task_id : JSON.stringify(r.task_id));
    out.add(sampleAttempt(plain, r.sample_id, attempt));
    out.add(statusHead(r.status));
    out.add(r.reward === null ? "null" : numberJson(r.reward));
    let first = true;
    for (const k in r.rewards) {
      const v = r.rewards[k];
      if (v === undefined) continue;
      out.add(first ? rewardsHead(k) : piece(k));
      out.add(valueJson(v));
      first = false;
    }
    let hasExtra = false;
    for (const _ in r.extra) {
      hasExtra = true;
      break;
    }
    if (r.job_seed === null && r.error === null && !hasExtra) {
      out.last(`${first ? ',"rewards":{' : ""}${tailOf(injectedJson)}`);
      return;
    }
    out.add(`${first ? ',"rewards":{' : ""}},"injected":${injectedJson},"job_seed":`);
    out.add(r.job_seed === null ? "null" : numberJson(r.job_seed));
    out.add(',"error":');
    out.add(r.error === null ? "null" : JSON.stringify(r.error));
    for (const k in r.extra) {
      const v = JSON.stringify(r.extra[k]);
      if (v === undefined) continue;
      out.add(piece(CONTRACT_TRACE_KEYS.has(k) ? `${k}_column` : k));
      out.add(v);
    }
    out.last("}\n");
  };
}

/** A trace line as an object (what {@linkcode traceWriter} writes the JSON of). */
function traceObject(
  r: ImportRow,
  attempt: number,
  injected: readonly string[],
): Record<string, unknown> {
  const line: Record<string, unknown> = {
    split: r.split,
    task_id: r.task_id,
    sample_id: r.sample_id,
    attempt,
    status: r.status,
    reward: r.reward,
    rewards: r.rewards,
    injected,
    job_seed: r.job_seed,
    error: r.error,
  };
  // Unmapped columns after the contract's fields; one named like a contract field (a
  // "reward" column when the mapping's primary is another) is kept as `<name>_column`.
  for (const k in r.extra) line[CONTRACT_TRACE_KEYS.has(k) ? `${k}_column` : k] = r.extra[k];
  return line;
}

/**
 * An assignment line's `slots` object as JSON (every slot, null or the
 * version present), the same bytes as JSON.stringify of it: the slots in
 * the order JSON.stringify gives them, one cached text per mask seen;
 * with the line's closing brace and line break.
 */
export function slotsWriter(
  slotIds: Iterable<string>,
  slotOf: (version: string) => string,
): (ids: readonly string[]) => string {
  const template: Record<string, null> = {};
  for (const slot of slotIds) template[slot] = null;
  const order = Object.keys(template);
  const position = new Map(order.map((slot, p) => [slot, p]));
  const empty = order.map((slot) => `${JSON.stringify(slot)}:null`);
  const cache = new Map<string, string>();
  // Most lists are shared (one per distinct mask): found by identity before their text.
  const shared = new Map<readonly string[], string>();
  return (ids) => {
    const known = shared.get(ids);
    if (known !== undefined) return known;
    const key = ids.join("\u0000");
    let text = cache.get(key);
    if (text === undefined) {
      const parts = [...empty];
      for (const id of ids) {
        const slot = slotOf(id);
        parts[position.get(slot)!] = `${JSON.stringify(slot)}:${JSON.stringify(id)}`;
      }
      text = `{${parts.join(",")}}}\n`;
      cache.set(key, text);
    }
    // Lists copied per row (injected lists) would only fill the map: it stops growing.
    if (shared.size < 1 << 16) shared.set(ids, text);
    return text;
  };
}
