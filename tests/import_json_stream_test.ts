/**
 * The streamed reader of a `.json` inspect_ai log
 * (lib/import/json_object_stream.ts) against `JSON.parse`, by fast-check:
 * any object with a `samples` array, written with or without whitespace
 * and cut into chunks anywhere, gives the same members and elements; a
 * text changed at one byte is read only when `JSON.parse` reads it too,
 * and then to the same value.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { JsonObjectStream } from "../lib/import/json_object_stream.ts";

/** The document as the stream reads it: its members, `samples` as the list of its elements. */
function streamed(bytes: Uint8Array, cuts: readonly number[]): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  let samples: unknown[] | null = null;
  const stream = new JsonObjectStream("samples", 1 << 20, {
    member: (key, value) => {
      members[key] = value;
    },
    element: (value, index) => {
      samples ??= [];
      samples[index] = value;
    },
  });
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    stream.push(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  stream.push(bytes.subarray(at));
  stream.end();
  // An empty samples array has no elements: the stream saw the key all the same.
  if (samples === null && /"samples"\s*:\s*\[/.test(new TextDecoder().decode(bytes))) samples = [];
  return samples === null ? members : { ...members, samples };
}

const documents = fc.record({
  members: fc.dictionary(
    fc.string().filter((k) => k !== "samples" && k !== "__proto__"),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 4 },
  ),
  samples: fc.option(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }), { nil: undefined }),
  indent: fc.constantFrom(undefined, 1, "\t"),
});

Deno.test("json object stream: any chunking of any document gives JSON.parse's value", () => {
  fc.assert(
    fc.property(
      documents,
      fc.array(fc.nat(), { maxLength: 8 }),
      ({ members, samples, indent }, cuts) => {
        const doc = samples === undefined ? members : { ...members, samples };
        const text = JSON.stringify(doc, null, indent);
        const bytes = new TextEncoder().encode(text);
        deepEqual(streamed(bytes, cuts.map((c) => c % (bytes.length + 1))), JSON.parse(text));
      },
    ),
    { numRuns: 400 },
  );
});

Deno.test("json object stream: a text changed at one byte is read only when JSON.parse reads it", () => {
  const bytesOf = fc.constantFrom(...'{}[]",:\\ 0a-e'.split("").map((c) => c.charCodeAt(0)));
  fc.assert(
    fc.property(documents, fc.nat(), bytesOf, fc.nat(), ({ members, samples }, at, byte, cut) => {
      const doc = samples === undefined ? members : { ...members, samples };
      const bytes = new TextEncoder().encode(JSON.stringify(doc));
      const i = at % bytes.length;
      bytes[i] = byte;
      let parsed: unknown, parsedOk = true;
      try {
        parsed = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        parsedOk = false;
      }
      let read: unknown, readOk = true;
      try {
        read = streamed(bytes, [cut % (bytes.length + 1)]);
      } catch {
        readOk = false;
      }
      if (readOk) {
        ok(parsedOk, new TextDecoder().decode(bytes));
        deepEqual(read, parsed);
      }
      if (!parsedOk) ok(!readOk);
    }),
    { numRuns: 1000 },
  );
});
