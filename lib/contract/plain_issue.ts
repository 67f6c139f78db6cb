/**
 * zod's issues in gatelab's words. zod phrases a problem for programmers
 * ("Invalid input: expected string, received undefined"); a user reading
 * `schema_error  gate.json bare_run_dir  ...` needs to hear what is wrong
 * with the value and, for a missing field, what the field is for. Every
 * message built from a zod issue goes through {@linkcode plainMessage}.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";

type ZodIssue = z.core.$ZodIssue;

/** The value at `path` inside `root`, and whether its last key is present. */
function at(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let value: unknown = root;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !(key in (value as object))) {
      return { present: false, value: undefined };
    }
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value };
}

/** A value as a user would name it: `a number (42)`, `null`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? `a string ("${value.slice(0, 37)}...")` : `"${value}"`;
    case "number":
      return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
    case "boolean":
      return `${value}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
  null: "null",
};

function kindOf(origin: string | undefined): string {
  return origin === "array" || origin === "set" ? "items" : "";
}

/**
 * A zod issue as one plain sentence about the value (the caller shows
 * where: file, line, field). A missing field says what it is for when
 * `purpose` knows it.
 *
 * @param issue The zod issue.
 * @param root The value that was parsed (to tell a missing field from a wrong one).
 * @param purpose What the field at the issue's path is for, if known.
 * @returns The message, never zod's own wording (custom messages, written
 *   by gatelab's schemas, are kept).
 *
 * @example
 * ```ts
 * import { plainMessage } from "./plain_issue.ts";
 * import { z } from "npm:zod@4.6.7";
 * import { deepEqual } from "node:assert/strict";
 * const schema = z.object({ dir: z.string(), stage: z.enum(["a", "b"]), k: z.int().min(1) });
 * const value = { stage: "c", k: 0.5 };
 * const r = schema.safeParse(value);
 * deepEqual(r.success ? [] : r.error.issues.map((i) => plainMessage(i, value, i.path[0] === "dir" ? "where the run is" : undefined)), [
 *   "missing: where the run is",
 *   'must be one of "a", "b"; got "c"',
 *   "must be an integer; got the number 0.5",
 * ]);
 * ```
 */
export function plainMessage(issue: ZodIssue, root: unknown, purpose?: string): string {
  const { present, value } = at(root, issue.path);
  if ((!present || value === undefined) && issue.code !== "custom") {
    return purpose === undefined
      ? "missing: a required field (see docs/FORMAT.md)"
      : `missing: ${purpose}`;
  }
  switch (issue.code) {
    case "invalid_type":
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}; got ${describeValue(value)}`;
    case "invalid_value": {
      const allowed = issue.values.map((v) => JSON.stringify(v));
      const got = describeValue(value);
      return allowed.length === 1
        ? `must be ${allowed[0]}; got ${got}`
        : `must be one of ${allowed.join(", ")}; got ${got}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return min <= 1 ? "must not be empty" : `needs ${min} or more characters`;
      }
      if (kindOf(issue.origin)) return `must list at least ${min} item${min === 1 ? "" : "s"}`;
      return `must be ${issue.inclusive ? "at least" : "greater than"} ${min}; got ${
        describeValue(value)
      }`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `must have at most ${max} characters`;
      if (kindOf(issue.origin)) return `must list at most ${max} item${max === 1 ? "" : "s"}`;
      return `must be ${issue.inclusive ? "at most" : "less than"} ${max}; got ${
        describeValue(value)
      }`;
    }
    case "invalid_format":
      return `must be a valid ${issue.format}; got ${describeValue(value)}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}; got ${describeValue(value)}`;
    case "unrecognized_keys":
      return `has fields this format does not define: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return `does not match any form this field allows; got ${describeValue(value)}`;
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has an element that is not allowed";
    case "custom":
      // Written by gatelab's own refinements, in its own words.
      return issue.message;
    default:
      return "is not valid here (see docs/FORMAT.md)";
  }
}
