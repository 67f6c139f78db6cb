/**
 * The study file, `gatelab.yaml` (or a JSON file with the same schema):
 * its zod schema and its parse into entries that keep the line of every
 * value (docs/FORMAT.md, "The study file").
 *
 * A study names itself (`study:`), its output root (`out:`, default `out`
 * beside the file), its imports (each one `gate import table` or `gate
 * import inspect`), its steps (each one gatelab command, keyed by the
 * command's name, its positional inputs as the key's value, its options
 * spelled as the command's flags without dashes), and whether the build
 * ends in one report and one paper. Every mistake is an {@linkcode Issue}
 * naming the file, the line and the field, with a "did you mean" where a
 * known name is near.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import type { Issue } from "../core/issue.ts";
import { nearestName } from "../core/nearest_name.ts";
import { type CommandFact, commandFact, STEP_COMMAND_NAMES } from "./command_options.ts";
import { type DocumentPath, parseYaml, type YamlDocument } from "./yaml_document.ts";

/** A step or import id: one path segment of `<out>`, as `gate` commands name directories. */
export const STUDY_ID = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** The paper classes a study can ask for (`paper: {class: ieee}`). */
export const PAPER_CLASSES = ["acm", "ieee", "article"] as const;

/** The keys every step may carry besides its command and the command's options. */
const STEP_KEYS = ["id", "title", "expect"] as const;

/** The keys of an import besides its command's options: `table:` is `gate import table`'s files. */
const IMPORT_KEYS = ["id", "title"] as const;

/** A scalar as a study file writes an option: text, a number, or true/false for a flag. */
const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** An import or a step: checked key by key against its command (lib/build/command_options.ts). */
const Entry = (kind: "import" | "step") =>
  z.record(z.string(), z.unknown()).superRefine((entry, ctx) => {
    for (const problem of entryProblems(kind, entry)) {
      ctx.addIssue({ code: "custom", message: problem.message, path: [...problem.path] });
    }
  });

/**
 * The schema of the study file. Unknown keys are refused at every level;
 * imports and steps are checked against the command they run.
 */
export const StudyFileSchema = z.strictObject({
  study: z.string().min(1),
  out: z.string().min(1).optional(),
  imports: z.array(Entry("import")).optional(),
  steps: z.array(Entry("step")).optional(),
  report: z.boolean().optional(),
  paper: z.union([z.boolean(), z.strictObject({ class: z.enum(PAPER_CLASSES) })]).optional(),
});

/** One value of an entry as written: its text and where it is. */
export interface WrittenValue {
  /** The text: a string as written, a number's digits as written (`0.10`, `1e4`). */
  readonly text: string;
  /** One-based line in the study file. */
  readonly line: number;
  /** The field, for messages: `steps[2].plan`. */
  readonly field: string;
}

/** An option of an entry: a flag, or its values (several for a repeatable option). */
export interface WrittenOption {
  /** The option's name (its flag without dashes). */
  readonly name: string;
  /** `true` for a flag given; a flag given `false` is left out. */
  readonly values: readonly WrittenValue[] | true;
}

/** An import or a step of the study, as the file writes it. */
export interface StudyEntry {
  /** `import` or `step`. */
  readonly kind: "import" | "step";
  /** Position in its list (0-based). */
  readonly index: number;
  /** The command: `analyze`, ..., `import table`, `import inspect`. */
  readonly command: string;
  /** The entry's field, for messages: `steps[2]`, `imports[0]`. */
  readonly field: string;
  /** Line of the entry. */
  readonly line: number;
  /** `id:` as written, if any. */
  readonly id?: WrittenValue;
  /** `title:`, if any. */
  readonly title?: string;
  /** `expect: refused`: the step is meant to exit 2. */
  readonly refused: boolean;
  /** The positional arguments (the command key's value, `table:` of an import). */
  readonly positionals: readonly WrittenValue[];
  /** The options in the order written. */
  readonly options: readonly WrittenOption[];
  /** A notebook step's `p:` parameters, name to value, in the order written. */
  readonly parameters?: readonly (readonly [string, unknown])[];
}

/** A parsed study file. */
export interface StudyFile {
  /** The file as given. */
  readonly file: string;
  /** `study:`. */
  readonly name: string;
  /** `out:` as written (relative to the file's directory), if any. */
  readonly out?: WrittenValue;
  /** `imports:`, in file order. */
  readonly imports: readonly StudyEntry[];
  /** `steps:`, in file order. */
  readonly steps: readonly StudyEntry[];
  /** `report:` (default true). */
  readonly report: boolean;
  /** `paper:` (default true: acm), or false. */
  readonly paper: { readonly class: (typeof PAPER_CLASSES)[number] } | false;
}

/**
 * Parses a study file's text. YAML and JSON are read alike (JSON is YAML
 * 1.2); the schema is {@linkcode StudyFileSchema}.
 *
 * @param text The file's text.
 * @param file The file as given, for messages.
 * @returns The study, or one issue per mistake (`code  file:line field  message`).
 *
 * @example A study with one step
 * ```ts
 * import { parseStudyFile } from "./study_file.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const parsed = parseStudyFile("study: s\nsteps:\n  - analyze: runs/g\n    bootstrap: 200\n", "gatelab.yaml");
 * if (!parsed.ok) throw new Error(parsed.issues[0]!.message);
 * const step = parsed.study.steps[0]!;
 * equal(step.command, "analyze");
 * deepEqual(step.positionals.map((p) => p.text), ["runs/g"]);
 * deepEqual(step.options, [{ name: "bootstrap", values: [{ text: "200", line: 4, field: "steps[0].bootstrap" }] }]);
 * ```
 *
 * @example A mistyped option names the nearest one
 * ```ts
 * import { parseStudyFile } from "./study_file.ts";
 * import { formatIssue } from "../core/issue.ts";
 * import { equal } from "node:assert/strict";
 * const parsed = parseStudyFile("study: s\nsteps:\n  - analyze: g\n    bootstraps: 2\n", "gatelab.yaml");
 * equal(parsed.ok ? "" : formatIssue(parsed.issues[0]!),
 *   "schema_error  gatelab.yaml:4 steps[0].bootstraps  unknown option of analyze; did you mean bootstrap?");
 * ```
 */
export function parseStudyFile(
  text: string,
  file: string,
): { ok: true; study: StudyFile } | { ok: false; issues: Issue[] } {
  const doc = parseYaml(text);
  if ("errors" in doc) {
    return {
      ok: false,
      issues: doc.errors.map((e) => ({
        code: "parse_error",
        file,
        line: e.line,
        message: `not YAML or JSON (column ${e.column}): ${e.message}`,
      })),
    };
  }
  const parsed = StudyFileSchema.safeParse(doc.value ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.flatMap((i) => schemaIssues(i, doc, file));
    return { ok: false, issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  }
  const value = parsed.data;
  const entries = (kind: "import" | "step", list: readonly Record<string, unknown>[]) =>
    list.map((entry, index) => studyEntry(kind, index, entry, doc));
  return {
    ok: true,
    study: {
      file,
      name: value.study,
      ...(value.out !== undefined ? { out: written(doc, ["out"], value.out) } : {}),
      imports: entries("import", value.imports ?? []),
      steps: entries("step", value.steps ?? []),
      report: value.report ?? true,
      paper: value.paper === false
        ? false
        : value.paper === true || value.paper === undefined
        ? { class: "acm" }
        : value.paper,
    },
  };
}

/** `steps[2].plan` from a path. */
export function fieldOf(path: DocumentPath): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`).join("");
}

/** A zod issue as gatelab issues: one per unknown key, with the line of the key. */
function schemaIssues(
  issue: z.core.$ZodIssue,
  doc: YamlDocument,
  file: string,
): Issue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  const at = (p: DocumentPath, message: string, key = false): Issue => ({
    code: "schema_error",
    file,
    line: doc.lineOf(p, key),
    ...(p.length > 0 ? { path: fieldOf(p) } : {}),
    message,
  });
  if (issue.code === "unrecognized_keys") {
    const known = knownKeys(path);
    return issue.keys.map((k) => {
      const near = nearestName(k, known);
      return at([...path, k], `unknown key${near ? `; did you mean ${near}?` : ""}`, true);
    });
  }
  if (issue.code === "custom") return [at(path, issue.message, true)];
  if (issue.code === "invalid_type") {
    const got = valueAt(doc.value, path);
    return [at(path, `expected ${expectedWords(path)}, got ${kindOf(got)}`)];
  }
  if (issue.code === "invalid_value" || issue.code === "invalid_union") {
    return [at(path, `expected ${expectedWords(path)}, got ${kindOf(valueAt(doc.value, path))}`)];
  }
  return [at(path, issue.message)];
}

/** The keys allowed where an unknown one was found. */
function knownKeys(path: DocumentPath): string[] {
  if (path.length === 0) return Object.keys(StudyFileSchema.shape);
  if (path[0] === "paper") return ["class"];
  return [];
}

function expectedWords(path: DocumentPath): string {
  const last = path[path.length - 1];
  if (last === "report") return "true or false";
  if (last === "paper") return `true, false or {class: ${PAPER_CLASSES.join(" | ")}}`;
  if (last === "class") return PAPER_CLASSES.join(", ").replace(/, (?=[^,]*$)/, " or ");
  if (last === "imports" || last === "steps") return "a list";
  if (typeof last === "number") return "a mapping (command, inputs, options)";
  return "a text";
}

function valueAt(value: unknown, path: DocumentPath): unknown {
  let v = value;
  for (const p of path) v = (v as Record<string | number, unknown> | undefined)?.[p];
  return v;
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `"${value}"`;
  return String(value);
}

/** The command an entry runs (by its keys), or a problem. */
function entryCommand(
  kind: "import" | "step",
  entry: Readonly<Record<string, unknown>>,
): { fact: CommandFact; key: string | null } | { problem: Problem } {
  const keys = Object.keys(entry);
  if (kind === "import") {
    if ("table" in entry && ("bare" in entry || "masked" in entry)) {
      return {
        problem: {
          path: [],
          message: "an import is a table (table:) or inspect_ai logs (bare:, masked:), not both",
        },
      };
    }
    if ("table" in entry) return { fact: commandFact("import table")!, key: "table" };
    if ("bare" in entry || "masked" in entry) {
      return { fact: commandFact("import inspect")!, key: null };
    }
    return {
      problem: {
        path: [],
        message:
          "an import needs table: <file>... (gate import table) or bare: <log> and masked: <log>... (gate import inspect)",
      },
    };
  }
  // A key may name a command and be an option of another (ledger-audit's history:):
  // the command is the one whose options the other command names are.
  const named = keys.filter((k) => STEP_COMMAND_NAMES.includes(k));
  const commands = named.filter((c) =>
    named.every((k) => k === c || commandFact(c)!.options.some((o) => o.name === k))
  );
  if (commands.length === 1) return { fact: commandFact(commands[0]!)!, key: commands[0]! };
  if (commands.length > 1) {
    return {
      problem: {
        path: [],
        message: `a step runs one command; this one names ${
          commands.join(" and ")
        }: make each its own step`,
      },
    };
  }
  const guess = keys.map((k) => nearestName(k, STEP_COMMAND_NAMES)).find((n) => n !== null);
  const typed = keys.find((k) => nearestName(k, STEP_COMMAND_NAMES) === guess);
  return {
    problem: guess ? { path: [typed!], message: `unknown command; did you mean ${guess}?` } : {
      path: [],
      message: `a step needs its command as a key: one of ${STEP_COMMAND_NAMES.join(", ")}`,
    },
  };
}

interface Problem {
  readonly path: DocumentPath;
  readonly message: string;
}

/** Every problem of one import or step: keys, value types, counts, required options. */
function entryProblems(
  kind: "import" | "step",
  entry: Readonly<Record<string, unknown>>,
): Problem[] {
  const command = entryCommand(kind, entry);
  if ("problem" in command) return [command.problem];
  const { fact, key } = command;
  const problems: Problem[] = [];
  const own: readonly string[] = kind === "import" ? IMPORT_KEYS : STEP_KEYS;
  const options = fact.options.filter((o) => o.name !== "out");
  for (const [name, v] of Object.entries(entry)) {
    const at = (message: string) => problems.push({ path: [name], message });
    if (name === key) {
      const list = v === null ? [] : Array.isArray(v) ? v : [v];
      if (!list.every((x) => typeof x === "string" || typeof x === "number")) {
        at(`expected a ${fact.positionals.what} or a list of them`);
      } else {
        const { min, max, what } = fact.positionals;
        if (list.length < min || list.length > max) {
          at(`${fact.name} takes ${countWords(min, max, what)}, got ${list.length}`);
        }
      }
    } else if (!own.includes(name) && (STEP_KEYS as readonly string[]).includes(name)) {
      at(`unknown key of an import (${IMPORT_KEYS.join(", ")} and ${fact.name}'s options)`);
    } else if (name === "id") {
      if (typeof v !== "string" || !STUDY_ID.test(v) || v.endsWith(".failed")) {
        at(
          "expected an id: letters, digits and . _ + - (one directory name, not ending in .failed)",
        );
      }
    } else if (name === "title") {
      if (typeof v !== "string") at("expected a text");
    } else if (name === "expect") {
      if (v !== "refused") at('expected "refused" (the step is meant to exit 2)');
    } else if (name === "out") {
      at(`out is the build's: the output goes to <out>/<id>; name it with id:`);
    } else if (fact.name === "notebook" && name === "p") {
      if (v === null || typeof v !== "object" || Array.isArray(v)) {
        at("expected a mapping of parameter names to values");
      }
    } else {
      const option = options.find((o) => o.name === name);
      if (option === undefined) {
        const near = nearestName(name, [...options.map((o) => o.name), ...own]);
        at(`unknown option of ${fact.name}${near ? `; did you mean ${near}?` : ""}`);
      } else if (option.type === "boolean") {
        if (typeof v !== "boolean") at("expected true or false (a flag)");
      } else if (option.multiple && Array.isArray(v)) {
        if (!v.every((x) => Scalar.safeParse(x).success && typeof x !== "boolean")) {
          at("expected a list of texts or numbers");
        }
      } else if (typeof v !== "string" && typeof v !== "number") {
        at(`expected a text or a number${option.multiple ? ", or a list of them" : ""}`);
      }
    }
  }
  for (const name of [...(kind === "import" ? ["id"] : []), ...fact.required]) {
    if (!(name in entry)) {
      problems.push({ path: [], message: `${fact.name} needs ${name}:` });
    }
  }
  return problems;
}

/** "one gate directory", "at least one table file", "no arguments". */
function countWords(min: number, max: number, what: string): string {
  if (max === 0) return `no ${what}s (its inputs are options)`;
  if (min === max) return min === 1 ? `one ${what}` : `${min} ${what}s`;
  if (max === Infinity) return min === 1 ? `at least one ${what}` : `${what}s`;
  return `${min} to ${max} ${what}s`;
}

/** A value with its text as written and its position. */
function written(doc: YamlDocument, path: DocumentPath, value: unknown): WrittenValue {
  const text = typeof value === "number" ? doc.sourceOf(path) ?? String(value) : String(value);
  return { text, line: doc.lineOf(path), field: fieldOf(path) };
}

/** One checked entry, its values with their positions. */
function studyEntry(
  kind: "import" | "step",
  index: number,
  entry: Readonly<Record<string, unknown>>,
  doc: YamlDocument,
): StudyEntry {
  const base: DocumentPath = [kind === "import" ? "imports" : "steps", index];
  const command = entryCommand(kind, entry);
  if ("problem" in command) throw new Error("unreachable: the schema checked the command");
  const { fact, key } = command;
  const values = (name: string, v: unknown): WrittenValue[] =>
    v === null
      ? []
      : Array.isArray(v)
      ? v.map((x, i) => written(doc, [...base, name, i], x))
      : [written(doc, [...base, name], v)];
  const options: WrittenOption[] = [];
  let parameters: (readonly [string, unknown])[] | undefined;
  for (const [name, v] of Object.entries(entry)) {
    if (name === key || (STEP_KEYS as readonly string[]).includes(name)) continue;
    if (fact.name === "notebook" && name === "p") {
      parameters = Object.entries(v as Record<string, unknown>);
      continue;
    }
    if (v === false) continue;
    options.push({ name, values: v === true ? true : values(name, v) });
  }
  return {
    kind,
    index,
    command: fact.name,
    field: fieldOf(base),
    line: doc.lineOf(base),
    ...(typeof entry.id === "string" ? { id: written(doc, [...base, "id"], entry.id) } : {}),
    ...(typeof entry.title === "string" ? { title: entry.title } : {}),
    refused: entry.expect === "refused",
    positionals: key === null ? [] : values(key, entry[key]),
    options,
    ...(parameters !== undefined ? { parameters } : {}),
  };
}
