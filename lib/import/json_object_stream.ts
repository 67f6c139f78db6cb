/**
 * A JSON document that is one object, read as a stream of its parts: each
 * member's value, and each element of one array member (an inspect_ai
 * `.json` log's `samples`) on its own. Memory is bounded by the largest
 * part, never by the document, so a log of any size is read; a part larger
 * than the limit is refused naming the limit. Each part is parsed by
 * gatelab's strict reader (lib/load/json_text.ts): duplicate keys, depth,
 * UTF-8; a key twice at the top level is refused too.
 *
 * @module
 */
import { parseJsonText } from "../load/json_text.ts";

const QUOTE = 34, BACKSLASH = 92, COMMA = 44, COLON = 58;
const OPEN_BRACE = 123, CLOSE_BRACE = 125, OPEN_BRACKET = 91, CLOSE_BRACKET = 93;

const enum State {
  Start,
  KeyOrClose,
  Key,
  InKey,
  Colon,
  Value,
  InValue,
  AfterMember,
  ArrayFirst,
  ArrayNext,
  InElement,
  AfterElement,
  Done,
}

const BOM = [0xef, 0xbb, 0xbf];

/** Whitespace as JSON defines it: space, tab, line feed, carriage return. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** Receives the parts of {@linkcode JsonObjectStream}. */
export interface JsonObjectParts {
  /** A member's value (every member but the streamed array). */
  member(key: string, value: unknown): void;
  /** An element of the streamed array, by its 0-based index. */
  element(value: unknown, index: number): void;
}

/** Why a stream was refused, to follow the file's name in a `parse_error`. */
export class JsonStreamError extends Error {}

/**
 * A push parser over the bytes of a JSON object (see the module). Feed it
 * with {@linkcode JsonObjectStream.push} and finish with
 * {@linkcode JsonObjectStream.end}; both throw a {@linkcode JsonStreamError}
 * whose message follows the file's name (`is not valid JSON at byte 12:
 * ...`). Chunks may split the text anywhere.
 *
 * @example A log's samples one by one, the other members whole
 * ```ts
 * import { JsonObjectStream } from "./json_object_stream.ts";
 * import { deepEqual } from "node:assert/strict";
 * const got: unknown[] = [];
 * const stream = new JsonObjectStream("samples", 1000, {
 *   member: (key, value) => got.push([key, value]),
 *   element: (value, index) => got.push([index, value]),
 * });
 * const text = new TextEncoder().encode('{"eval": {"model": "m"}, "samples": [{"id": 1}, {"id": "a]"}]}');
 * for (let i = 0; i < text.length; i += 7) stream.push(text.subarray(i, i + 7));
 * stream.end();
 * deepEqual(got, [["eval", { model: "m" }], [0, { id: 1 }], [1, { id: "a]" }]]);
 * ```
 */
export class JsonObjectStream {
  #state = State.Start;
  /** Bytes before the current chunk. */
  #offset = 0;
  /** Pieces of the part being collected (copies of earlier chunks' tails). */
  #pieces: Uint8Array[] = [];
  #length = 0;
  #partStart = 0;
  #depth = 0;
  #inString = false;
  #escape = false;
  /** The part being collected is a number or literal (ends before a delimiter). */
  #primitive = false;
  #key = "";
  #keys = new Set<string>();
  #index = 0;
  /** Bytes of the byte order mark read so far. */
  #bom = 0;
  /** Where the search for a backslash in the current chunk stopped (-1: search again). */
  #nextBackslash = -1;
  readonly #arrayKey: string;
  readonly #maxPartBytes: number;
  readonly #parts: JsonObjectParts;

  /**
   * @param arrayKey The member whose array is streamed element by element.
   * @param maxPartBytes The largest part (a member's value, an element, a key) read.
   * @param parts Receives the parts.
   */
  constructor(arrayKey: string, maxPartBytes: number, parts: JsonObjectParts) {
    this.#arrayKey = arrayKey;
    this.#maxPartBytes = maxPartBytes;
    this.#parts = parts;
  }

  /** Reads the next bytes of the document. */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    this.#nextBackslash = -1;
    let i = 0;
    // A part carried over from the last chunk continues at byte 0.
    let start = 0;
    while (i < n) {
      const state = this.#state;
      if (state === State.InKey || state === State.InValue || state === State.InElement) {
        const end = this.#scan(chunk, i);
        if (end < 0) {
          this.#keep(chunk.subarray(start, n));
          i = n;
          break;
        }
        const part = this.#take(chunk.subarray(start, end));
        i = end;
        this.#complete(state, part);
        continue;
      }
      const c = chunk[i]!;
      if (state === State.Start && this.#bom < 3 && (this.#bom > 0 || this.#offset + i === 0)) {
        // A UTF-8 byte order mark at the very start is skipped.
        if (c === BOM[this.#bom]) {
          this.#bom++;
          i++;
          continue;
        }
        if (this.#bom > 0) this.#fail(i, "a broken byte order mark");
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (state) {
        case State.Start:
          if (c !== OPEN_BRACE) this.#fail(i, "the log is not one JSON object");
          this.#state = State.KeyOrClose;
          i++;
          continue;
        case State.KeyOrClose:
        case State.Key:
          if (c === CLOSE_BRACE && state === State.KeyOrClose) {
            this.#state = State.Done;
            i++;
            continue;
          }
          if (c !== QUOTE) this.#fail(i, "expected a key");
          start = this.#begin(i, State.InKey);
          continue;
        case State.Colon:
          if (c !== COLON) this.#fail(i, "expected ':'");
          this.#state = State.Value;
          i++;
          continue;
        case State.Value:
          if (this.#key === this.#arrayKey && c === OPEN_BRACKET) {
            this.#state = State.ArrayFirst;
            this.#index = 0;
            i++;
            continue;
          }
          start = this.#begin(i, State.InValue);
          continue;
        case State.ArrayFirst:
        case State.ArrayNext:
          if (c === CLOSE_BRACKET && state === State.ArrayFirst) {
            this.#state = State.AfterMember;
            i++;
            continue;
          }
          start = this.#begin(i, State.InElement);
          continue;
        case State.AfterMember:
          if (c === COMMA) this.#state = State.Key;
          else if (c === CLOSE_BRACE) this.#state = State.Done;
          else this.#fail(i, "expected ',' or '}' after a member");
          i++;
          continue;
        case State.AfterElement:
          if (c === COMMA) this.#state = State.ArrayNext;
          else if (c === CLOSE_BRACKET) this.#state = State.AfterMember;
          else this.#fail(i, `expected ',' or ']' after element ${this.#index - 1}`);
          i++;
          continue;
        case State.Done:
          this.#fail(i, "text after the end of the log's object");
      }
    }
    this.#offset += n;
  }

  /** Ends the document: it must be complete. */
  end(): void {
    if (this.#state !== State.Done) {
      throw new JsonStreamError(
        `is not valid JSON: it ends at byte ${this.#offset} before the log's object closes (truncated)`,
      );
    }
  }

  #fail(i: number, why: string): never {
    throw new JsonStreamError(`is not valid JSON at byte ${this.#offset + i}: ${why}`);
  }

  /** Starts collecting a part at byte `i` of the chunk; returns `i` (where its bytes start). */
  #begin(i: number, state: State): number {
    this.#state = state;
    this.#pieces = [];
    this.#length = 0;
    this.#partStart = this.#offset + i;
    this.#depth = 0;
    this.#inString = false;
    this.#escape = false;
    this.#primitive = false;
    return i;
  }

  /**
   * Scans the part being collected from byte `i`; returns the index just
   * past its end, or -1 when it goes on past the chunk. The first byte of a
   * part decides its kind: an object or array (depth), a string, or a
   * number or literal.
   */
  #scan(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    if (this.#length === 0 && this.#depth === 0 && !this.#inString && !this.#primitive) {
      // The first byte of the part.
      const c = chunk[i]!;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.#depth = 1;
        i++;
      } else if (c === QUOTE) {
        this.#inString = true;
        i++;
      } else this.#primitive = true;
    }
    if (this.#primitive) {
      while (i < n) {
        const c = chunk[i]!;
        if (isSpace(c) || c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET) return i;
        i++;
      }
      return -1;
    }
    while (i < n) {
      if (this.#inString) {
        if (this.#escape) {
          this.#escape = false;
          i++;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, i);
        if (this.#nextBackslash < i) {
          this.#nextBackslash = chunk.indexOf(BACKSLASH, i);
          if (this.#nextBackslash < 0) this.#nextBackslash = n;
        }
        const backslash = this.#nextBackslash;
        if (backslash < n && (quote < 0 || backslash < quote)) {
          // An escape before the closing quote: skip the escaped byte.
          if (backslash + 1 >= n) {
            this.#escape = true;
            return -1;
          }
          i = backslash + 2;
          continue;
        }
        if (quote < 0) return -1;
        this.#inString = false;
        i = quote + 1;
        if (this.#depth === 0) return i;
        continue;
      }
      const c = chunk[i]!;
      if (c === QUOTE) this.#inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.#depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--this.#depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }

  /** Keeps a piece of the part that goes on in the next chunk. */
  #keep(piece: Uint8Array): void {
    this.#grow(piece.length);
    this.#pieces.push(piece.slice());
  }

  #grow(by: number): void {
    this.#length += by;
    if (this.#length > this.#maxPartBytes) {
      throw new JsonStreamError(
        `holds ${this.#what()} (from byte ${this.#partStart}) of more than ${this.#maxPartBytes} bytes, past the limit (--max-entry-bytes)`,
      );
    }
  }

  /** The whole part: the pieces kept and the last one. */
  #take(last: Uint8Array): Uint8Array {
    this.#grow(last.length);
    if (this.#pieces.length === 0) return last;
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const p of this.#pieces) {
      out.set(p, at);
      at += p.length;
    }
    out.set(last, at);
    this.#pieces = [];
    return out;
  }

  #what(): string {
    const state = this.#state;
    if (state === State.InKey) return "a key";
    if (state === State.InElement) {
      return `element ${this.#index} of ${JSON.stringify(this.#arrayKey)}`;
    }
    return `the member ${JSON.stringify(this.#key)}`;
  }

  #complete(state: State, bytes: Uint8Array): void {
    let text: string;
    try {
      text = DECODER.decode(bytes);
    } catch {
      throw new JsonStreamError(
        `holds ${this.#what()} (from byte ${this.#partStart}) that is not valid UTF-8`,
      );
    }
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      throw new JsonStreamError(
        `holds ${this.#what()} (from byte ${this.#partStart}) that ${parsed.why}${
          parsed.path ? ` (at ${parsed.path})` : ""
        }`,
      );
    }
    if (state === State.InKey) {
      const key = parsed.value as string;
      if (this.#keys.has(key)) {
        throw new JsonStreamError(
          `has the key ${
            JSON.stringify(key)
          } twice in the log's object (JSON allows each key once)`,
        );
      }
      this.#keys.add(key);
      this.#key = key;
      this.#state = State.Colon;
    } else if (state === State.InValue) {
      this.#parts.member(this.#key, parsed.value);
      this.#state = State.AfterMember;
    } else {
      this.#parts.element(parsed.value, this.#index++);
      this.#state = State.AfterElement;
    }
  }
}

const DECODER = new TextDecoder("utf-8", { fatal: true });
