import { openRegularFile } from "./regular_file.ts";

const QUOTE = 34, BACKSLASH = 92, COLON = 58, COMMA = 44;
const OPEN_BRACE = 123, CLOSE_BRACE = 125, OPEN_BRACKET = 91, CLOSE_BRACKET = 93;

/** Where the scan of {@linkcode readJsonMembers} is in the top-level object. */
const enum At {
  Start, // before the opening brace
  First, // before the first member's key, or the closing brace of {}
  Key, // before a member's key
  Colon, // after a key
  Value, // inside a member's value
  End, // after the closing brace
}

/**
 * Reads some top-level members of a JSON object file without holding the
 * rest: the file is scanned as it streams in, only the text of a wanted
 * member's value is kept and parsed, and reading stops once every wanted
 * member is found. For files too large to read as one string, such as a
 * previous run's contributions.json, of which only the header is needed.
 * Only the wanted values are parsed; around them the scan checks the
 * object's structure (braces, keys, colons) as far as it reads. A member
 * that occurs twice counts at its first occurrence.
 *
 * @param path A file holding one JSON object.
 * @param names The members to read.
 * @param chunkBytes Bytes read at a time.
 * @returns The members found, by name (a name that is not a member is left out).
 * @throws SyntaxError When the text read is not the start of a JSON object
 *   or a wanted value is not valid JSON (or not UTF-8: TypeError).
 * @throws Deno.errors.NotFound and other errors of {@linkcode openRegularFile}.
 *
 * @example
 * ```ts
 * import { readJsonMembers } from "./json_head.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a": {"x": "}"}, "big": [1, 2, 3], "b": 2}');
 * const head = await readJsonMembers(path, ["a", "b", "c"]);
 * deepEqual([...head], [["a", { x: "}" }], ["b", 2]]);
 * await Deno.remove(path);
 * ```
 */
export async function readJsonMembers(
  path: string,
  names: readonly string[],
  chunkBytes = 1 << 16,
): Promise<Map<string, unknown>> {
  const wanted = new Set(names);
  const found = new Map<string, unknown>();
  let at = At.Start, depth = 0, inString = false, escaped = false;
  let key = "", keep = false, text = "";
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const refuse = (what: string): never => {
    throw new SyntaxError(`not a JSON object: ${what}`);
  };
  const endValue = () => {
    if (keep) found.set(key, JSON.parse(text));
    wanted.delete(key);
    text = "";
  };
  using file = await openRegularFile(path);
  const buffer = new Uint8Array(chunkBytes);
  while (wanted.size > 0 && at !== At.End) {
    const n = await file.read(buffer);
    if (n === null) break;
    const chunk = decoder.decode(buffer.subarray(0, n), { stream: true });
    let valueFrom = 0;
    for (let i = 0; i < chunk.length && at !== At.End && wanted.size > 0; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (at === At.Key || at === At.First) {
            key = JSON.parse(text + chunk.slice(valueFrom, i + 1));
            text = "";
            at = At.Colon;
          }
        }
        continue;
      }
      if (at === At.Value) {
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) depth--;
        else if (depth === 0 && (c === COMMA || c === CLOSE_BRACE)) {
          if (keep) text += chunk.slice(valueFrom, i);
          endValue();
          at = c === COMMA ? At.Key : At.End;
        }
        continue;
      }
      if (c === 32 || c === 9 || c === 10 || c === 13) continue;
      if (at === At.Start) {
        if (c !== OPEN_BRACE) refuse("it does not start with {");
        at = At.First;
      } else if (at === At.Key || at === At.First) {
        if (c === CLOSE_BRACE && at === At.First) at = At.End;
        else if (c !== QUOTE) refuse("a member does not start with a key");
        else inString = true, valueFrom = i, text = "";
      } else if (at === At.Colon) {
        if (c !== COLON) refuse(`no ":" after the key ${JSON.stringify(key)}`);
        at = At.Value, keep = wanted.has(key), valueFrom = i + 1, text = "";
      }
    }
    if (inString && (at === At.Key || at === At.First)) text += chunk.slice(valueFrom);
    else if (at === At.Value && keep) text += chunk.slice(valueFrom);
  }
  if (at !== At.End && wanted.size > 0) {
    decoder.decode();
    if (at === At.Start) refuse("the file is empty");
    refuse("the file ends inside the object");
  }
  return found;
}
