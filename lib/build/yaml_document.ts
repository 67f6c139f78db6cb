/**
 * A YAML (or JSON) text parsed with the positions of its values, through
 * the pinned `yaml` package: the value, the line of every key and value by
 * its path, and each scalar's text as written (`0.10` stays `0.10`).
 *
 * @module
 */
import process from "node:process";
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type Scalar,
} from "npm:yaml@2.9.1";

/** A path into the document: keys and list positions. */
export type DocumentPath = readonly (string | number)[];

/** A parsed YAML document with its positions. */
export interface YamlDocument {
  /** The value (YAML 1.2 core schema: JSON is read the same). */
  readonly value: unknown;
  /** One-based line of the value at `path` (of its key when `key`), or of the nearest parent. */
  lineOf(path: DocumentPath, key?: boolean): number;
  /** The text of the scalar at `path` as written (a number's digits), or undefined. */
  sourceOf(path: DocumentPath): string | undefined;
}

/** A syntax error: its one-based line and column and the parser's first line. */
export interface YamlSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/**
 * Parses YAML (JSON is YAML 1.2 too) with positions. Duplicate keys are
 * syntax errors.
 *
 * The `yaml` package reads the environment variables `LOG_TOKENS` and
 * `LOG_STREAM` (its debug switches) while it parses. Where that read is
 * not granted (the `gate` task grants only `INIT_CWD`), the parse runs with
 * an empty environment object in their place, so the study file needs no
 * further permission; nothing else runs in between (the parse is synchronous).
 *
 * @param text The file's text.
 * @returns The document, or the syntax errors.
 *
 * @example
 * ```ts
 * import { parseYaml } from "./yaml_document.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const doc = parseYaml("study: s\nsteps:\n  - analyze: g\n    alpha: 0.10\n");
 * if (!("value" in doc)) throw new Error("not parsed");
 * deepEqual(doc.value, { study: "s", steps: [{ analyze: "g", alpha: 0.1 }] });
 * equal(doc.lineOf(["steps", 0, "alpha"]), 4);
 * equal(doc.sourceOf(["steps", 0, "alpha"]), "0.10");
 * const bad = parseYaml("a: [1,\n");
 * equal("errors" in bad && bad.errors[0]!.line, 2);
 * ```
 */
export function parseYaml(text: string): YamlDocument | { readonly errors: YamlSyntaxError[] } {
  const lines = new LineCounter();
  const doc = withoutDebugVariables(() => parseDocument(text, { lineCounter: lines }));
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => {
        const at = lines.linePos(e.pos[0]);
        return { line: at.line, column: at.col, message: e.message.split("\n")[0]!.trim() };
      }),
    };
  }
  const lineAt = (offset: number) => lines.linePos(offset).line;
  const nodeAt = (path: DocumentPath): { node: unknown; key: unknown; depth: number } => {
    let node: unknown = doc.contents, key: unknown = undefined, depth = 0;
    for (const part of path) {
      let next: unknown = undefined, nextKey: unknown = undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === part);
        next = pair?.value;
        nextKey = pair?.key;
      } else if (isSeq(node) && typeof part === "number") next = node.items[part];
      if (next === undefined && nextKey === undefined) break;
      node = next;
      key = nextKey;
      depth++;
    }
    return { node, key, depth };
  };
  return {
    value: doc.toJS(),
    lineOf(path, wantKey = false) {
      const { node, key, depth } = nodeAt(path);
      const target = (wantKey || depth < path.length || node === null || node === undefined)
        ? key ?? node
        : node;
      const range = (target as Node | undefined)?.range ?? (node as Node | undefined)?.range;
      return range ? lineAt(range[0]) : 1;
    },
    sourceOf(path) {
      const { node, depth } = nodeAt(path);
      if (depth < path.length || !isScalar(node)) return undefined;
      return (node as Scalar & { source?: string }).source;
    },
  };
}

function withoutDebugVariables<T>(parse: () => T): T {
  const granted = ["LOG_TOKENS", "LOG_STREAM"].every((variable) =>
    Deno.permissions.querySync({ name: "env", variable }).state === "granted"
  );
  if (granted) return parse();
  const env = process.env;
  Object.defineProperty(process, "env", { value: {}, configurable: true, writable: true });
  try {
    return parse();
  } finally {
    Object.defineProperty(process, "env", { value: env, configurable: true, writable: true });
  }
}
