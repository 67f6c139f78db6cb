import type { Issue } from "../core/issue.ts";

/**
 * Manifest fields that must be equal between a bare run and a masked run
 * of the same gate (a masked run may differ from its bare run only in the
 * skill it injects): split and plan size,
 * checkpoint, model, endpoint, sampling, send_seed, base prompt hash,
 * environment, runtime protocol, reward version and components. The task
 * list is compared as a set separately.
 */
export const PAIRING_PROVENANCE_FIELDS: readonly string[] = [
  "split",
  "repeats",
  "provenance.checkpoint_id",
  "provenance.model",
  "provenance.endpoint",
  "provenance.sampling",
  "provenance.send_seed",
  "provenance.base_prompt_sha256",
  "provenance.environment",
  "provenance.runtime",
  "provenance.reward",
];

/** Options of {@linkcode provenanceDifferences}. */
export interface ProvenanceOptions {
  /**
   * Names of the two sides in messages.
   * @default {["a", "b"]}
   */
  readonly labels?: readonly [string, string];
  /** File to name in the issues (e.g. the second manifest). */
  readonly file?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads a dotted path out of a JSON value; undefined when absent. */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split(".")) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** JSON text with object keys sorted, for equality of JSON values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return value === undefined ? "(absent)" : JSON.stringify(value);
}

function collect(
  a: unknown,
  b: unknown,
  path: string,
  labels: readonly [string, string],
  out: Issue[],
  file: string | undefined,
): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) collect(a[key], b[key], `${path}.${key}`, labels, out, file);
    return;
  }
  const ta = canonicalJson(a), tb = canonicalJson(b);
  if (ta === tb) return;
  const issue: Issue = {
    code: "provenance_mismatch",
    message: `${path} differs: ${labels[0]} ${ta}, ${labels[1]} ${tb}`,
    path,
  };
  out.push(file === undefined ? issue : { ...issue, file });
}

/**
 * Compares the given dotted fields of two run manifests and returns one
 * `provenance_mismatch` issue per differing leaf, naming the field and both
 * values. Objects are compared key by key (so a changed
 * `provenance.sampling.temperature` is named exactly); other values by
 * canonical JSON (key order does not matter); an absent field differs from
 * a present one.
 *
 * @param a First manifest (any JSON object).
 * @param b Second manifest.
 * @param fields Dotted paths to compare, e.g. {@linkcode PAIRING_PROVENANCE_FIELDS}.
 * @param options Side labels and file for the issues.
 * @returns The differences, in field order then sorted key order.
 *
 * @example
 * ```ts
 * import { provenanceDifferences } from "./provenance.ts";
 * import { deepEqual } from "node:assert/strict";
 * const a = { provenance: { model: "m", sampling: { temperature: 0.7, top_p: 1 } } };
 * const b = { provenance: { model: "m", sampling: { top_p: 1, temperature: 1.0 } } };
 * const issues = provenanceDifferences(a, b, ["provenance.model", "provenance.sampling"], { labels: ["bare", "masked"] });
 * deepEqual(issues.map((i) => i.message), ["provenance.sampling.temperature differs: bare 0.7, masked 1"]);
 * ```
 */
export function provenanceDifferences(
  a: unknown,
  b: unknown,
  fields: readonly string[],
  options: ProvenanceOptions = {},
): Issue[] {
  const labels = options.labels ?? ["a", "b"];
  const out: Issue[] = [];
  for (const field of fields) {
    collect(getPath(a, field), getPath(b, field), field, labels, out, options.file);
  }
  return out;
}

/**
 * Differences between an attempt's own provenance and its manifest's
 * `provenance`: every leaf the attempt states that the manifest also has
 * must be equal. Leaves only the attempt states are not compared.
 *
 * @param attemptProvenance The attempt's `provenance` object.
 * @param manifestProvenance The manifest's `provenance` object.
 * @returns `[dottedPath, attemptValue, manifestValue]` per difference, sorted by path.
 *
 * @example
 * ```ts
 * import { attemptProvenanceDifferences } from "./provenance.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   attemptProvenanceDifferences({ environment: { version: "1.0.1" }, host: "n1" }, { environment: { name: "s", version: "1.0.0" } }),
 *   [["provenance.environment.version", "\"1.0.1\"", "\"1.0.0\""]],
 * );
 * ```
 */
export function attemptProvenanceDifferences(
  attemptProvenance: Readonly<Record<string, unknown>>,
  manifestProvenance: Readonly<Record<string, unknown>>,
): [string, string, string][] {
  const out: [string, string, string][] = [];
  const walk = (a: unknown, m: unknown, path: string) => {
    if (isPlainObject(a) && isPlainObject(m)) {
      for (const key of Object.keys(a).sort()) {
        if (Object.hasOwn(m, key)) walk(a[key], m[key], `${path}.${key}`);
      }
      return;
    }
    const ta = canonicalJson(a), tm = canonicalJson(m);
    if (ta !== tm) out.push([path, ta, tm]);
  };
  walk(attemptProvenance, manifestProvenance, "provenance");
  return out;
}
