/**
 * docs/FORMAT.md against the output schemas of lib/contract/outputs: for
 * every output file, the JSON sketch FORMAT.md gives (a code block or an
 * inline `{"format": ..., "field", ...}` sketch) must name exactly the
 * fields of its schema, at every depth the schema describes: every
 * documented field exists in the schema and every schema field is
 * documented.
 *
 * Sketch syntax (as FORMAT.md writes it): `"key"` alone is a field whose
 * value is described in the prose; `"key": value` gives the value, where
 * an object `{...}` or an array of objects `[{...}]` is described field by
 * field; `<name>` (quoted or not) stands for a key chosen by the data
 * (metric, version id); `"key"?` marks an optional field; `( ... )` and
 * `// ...` are comments; `...` is allowed only inside arrays.
 */
import { deepEqual, ok } from "node:assert/strict";
import { z } from "zod";
import {
  EstimatorSchema,
  GateRunSchema,
  GeneratorSchema,
  IssueSchema,
  OUTPUT_SCHEMAS,
  RunRefSchema,
} from "../lib/contract/outputs/mod.ts";

/** A field tree: null for a leaf, else child name to tree ("*" for a key chosen by the data). */
type Tree = { readonly [key: string]: Tree } | null;

// ---------------------------------------------------------------- sketches

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s|`/.test(c)) i++;
    else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "(") {
      let depth = 0;
      do {
        if (text[i] === "(") depth++;
        else if (text[i] === ")") depth--;
        i++;
      } while (depth > 0 && i < text.length);
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else if (text.startsWith("...", i)) {
      tokens.push("...");
      i += 3;
    } else if ("{}[]:,|?)".includes(c)) {
      tokens.push(c);
      i++;
    } else {
      const m = /^[^\s`{}[\]:,|?()"]+/.exec(text.slice(i))!;
      tokens.push(m[0]);
      i += m[0].length;
    }
  }
  return tokens;
}

/** Parses the sketch object starting at `text[0] === "{"`. */
function parseSketch(text: string): Tree {
  const tokens = tokenize(text);
  let p = 0;
  const keyOf = (t: string) => {
    const name = t.startsWith('"') ? t.slice(1, -1) : t;
    return /^<.+>$/.test(name) ? "*" : name;
  };
  function object(): Tree {
    p++; // {
    const fields: Record<string, Tree> = {};
    for (;;) {
      const t = tokens[p];
      if (t === undefined) throw new Error("unterminated sketch");
      if (t === "}") {
        p++;
        break;
      }
      if (t === "," || t === "?") {
        p++;
        continue;
      }
      if (t === "...") throw new Error(`"..." among the fields after ${Object.keys(fields)}`);
      if ("{[:|]".includes(t)) throw new Error(`unexpected "${t}" after ${Object.keys(fields)}`);
      p++;
      if (tokens[p] === "?") p++;
      const key = keyOf(t);
      if (tokens[p] === ":") {
        p++;
        fields[key] = value(",}");
      } else fields[key] = null;
    }
    // A key chosen by the data whose values are not described field by field is part of its parent's value.
    if (fields["*"] === null) delete fields["*"];
    return Object.keys(fields).length === 0 ? null : fields;
  }
  function array(): Tree {
    p++; // [
    let found: Tree = null;
    for (;;) {
      const t = tokens[p];
      if (t === undefined) throw new Error("unterminated array");
      if (t === "]") {
        p++;
        return found;
      }
      if (t === "{") found ??= object();
      else if (t === "[") found ??= array();
      else p++;
    }
  }
  /** A value up to one of `stops` (not consumed): alternatives joined by `|`; the first described object wins. */
  function value(stops: string): Tree {
    let found: Tree = null;
    for (;;) {
      const t = tokens[p];
      if (t === undefined || stops.includes(t)) return found;
      if (t === "{") found ??= object();
      else if (t === "[") found ??= array();
      else p++;
    }
  }
  return object();
}

/** The sketch of an output: the object around `"format": "<literal>"`, or after `anchor`. */
function sketchOf(doc: string, anchor: string, formatLiteral: boolean): Tree {
  // An inline sketch may break its line anywhere, so any run of spaces matches any whitespace.
  const pattern = anchor.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ +/g, "\\s+");
  const at = doc.search(new RegExp(pattern));
  if (at < 0) return null;
  const start = formatLiteral ? doc.lastIndexOf("{", at) : doc.indexOf("{", at);
  return parseSketch(doc.slice(start));
}

// ---------------------------------------------------------------- schemas

/** Shared blocks FORMAT.md describes once (generator in Extensions, run references in section 5). */
const NAMED: ReadonlySet<z.ZodType> = new Set<z.ZodType>([
  GeneratorSchema,
  RunRefSchema,
  EstimatorSchema,
  IssueSchema,
  GateRunSchema,
]);

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodReadonly) {
      s = s.unwrap() as z.ZodType;
    } else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else return s;
  }
}

function schemaTree(schema: z.ZodType): Tree {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) {
    return Object.fromEntries(
      Object.entries(s.shape as Record<string, z.ZodType>).map(([k, v]) => [k, schemaTree(v)]),
    );
  }
  if (s instanceof z.ZodRecord) {
    const inner = schemaTree(s.valueType as z.ZodType);
    return inner === null ? null : { "*": inner };
  }
  return null;
}

function isNamed(schema: z.ZodType, path: readonly string[]): boolean {
  let s: z.ZodType = schema;
  for (const key of path) {
    const u = unwrap(s);
    if (u instanceof z.ZodObject) s = (u.shape as Record<string, z.ZodType>)[key]!;
    else if (u instanceof z.ZodRecord) s = u.valueType as z.ZodType;
  }
  const u = unwrap(s);
  return [...NAMED].some((n) => unwrap(n) === u);
}

/** Differences between the documented and the schema trees, as "path: problem". */
function compare(
  schema: z.ZodType,
  documented: Tree,
  described: Tree,
  path: string[] = [],
): string[] {
  const at = path.join(".") || "(top)";
  if (documented === null && described === null) return [];
  if (documented === null) {
    return isNamed(schema, path) ? [] : [
      `${at}: fields ${Object.keys(described!).join(", ")} are in the schema, not documented`,
    ];
  }
  if (described === null) {
    return [`${at}: documented fields ${Object.keys(documented).join(", ")} are not in the schema`];
  }
  const out: string[] = [];
  for (const key of new Set([...Object.keys(documented), ...Object.keys(described)])) {
    if (!(key in described)) out.push(`${[...path, key].join(".")}: documented, not in the schema`);
    else if (!(key in documented)) {
      out.push(`${[...path, key].join(".")}: in the schema, not documented`);
    } else out.push(...compare(schema, documented[key]!, described[key]!, [...path, key]));
  }
  return out;
}

const FORMAT = await Deno.readTextFile(new URL("../docs/FORMAT.md", import.meta.url));

/** Where FORMAT.md sketches each output: its format literal, or an anchor before the sketch. */
function anchorOf(name: string, schema: z.ZodType): [string, boolean] {
  const format = schema instanceof z.ZodObject
    ? (schema.shape as Record<string, z.ZodType>)["format"]
    : undefined;
  if (format instanceof z.ZodLiteral) return [`"format": "${String(format.value)}"`, true];
  return [`\`<out>/${name}\``, false];
}

for (const [name, schema] of Object.entries(OUTPUT_SCHEMAS)) {
  Deno.test(`docs/FORMAT.md documents exactly the fields of ${name}`, () => {
    const [anchor, isFormat] = anchorOf(name, schema);
    const documented = sketchOf(FORMAT, anchor, isFormat);
    ok(documented !== null, `FORMAT.md has no sketch of ${name} (looked for ${anchor})`);
    deepEqual(compare(schema, documented, schemaTree(schema)), []);
  });
}

Deno.test("the sketch reader: fields, nested objects, keys chosen by the data, comments", () => {
  deepEqual(
    parseSketch(
      `{"format": "x", "a" (a comment, with a comma), "b": {"<m>": {"c", "d"?: 1 | null}},
       "e": [{"f", "g": [lo, hi]}] | null, // the end
       "h": {"<id>": 0|1}}`,
    ),
    { format: null, a: null, b: { "*": { c: null, d: null } }, e: { f: null, g: null }, h: null },
  );
  deepEqual(parseSketch(`{trajectory_id, recipe, reward}`), {
    trajectory_id: null,
    recipe: null,
    reward: null,
  });
  let error = "";
  try {
    parseSketch(`{"a", ...}`);
  } catch (e) {
    error = (e as Error).message;
  }
  deepEqual(error, '"..." among the fields after a');
});
