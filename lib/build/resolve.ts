/**
 * From a parsed study file to what a build runs: every import and step
 * with its id, its command line exactly as a user standing in the current
 * directory would type it, the paths it reads, and the steps it depends
 * on. Inputs name a path (relative to the study file), an import's gate
 * (`<import id>/<gate>`) or another step's output (`<step id>`, or a file
 * in it: `<step id>/selection.json`); the last two make the dependency
 * graph.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Issue } from "../core/issue.ts";
import { nearestName } from "../core/nearest_name.ts";
import { commandFact } from "./command_options.ts";
import { STUDY_ID, type StudyEntry, type StudyFile, type WrittenValue } from "./study_file.ts";

/** One import or step, resolved. */
export interface StudyNode {
  /** Its output directory's name under the study's `out`. */
  readonly id: string;
  /** An entry of `imports:` or of `steps:`. */
  readonly kind: "import" | "step";
  /** `analyze`, ..., `import table`, `import inspect`, `notebook`. */
  readonly command: string;
  /** `title:`, if any. */
  readonly title?: string;
  /** `expect: refused`: exit 2 is its success. */
  readonly refused: boolean;
  /** Its line in the study file, for messages. */
  readonly line: number;
  /** Its field in the study file, for messages: `steps[2]`. */
  readonly field: string;
  /**
   * What the build runs: for a command, the arguments of `gate` (`["analyze",
   * "runs/g", "--out", "out/g"]`); for a notebook, those of `deno task notebooks`.
   */
  readonly argv: readonly string[];
  /** Each option and the positional inputs as written (`"<positionals>"` for those), for "option changed". */
  readonly options: Readonly<Record<string, string>>;
  /** The files and directories it reads that no step writes (absolute paths). */
  readonly inputs: readonly string[];
  /** The ids it reads the output of, sorted. */
  readonly upstream: readonly string[];
  /** Every path it reads, absolute, in the order written: its inputs and paths in upstream outputs. */
  readonly reads: readonly string[];
  /** Its output directory, absolute. */
  readonly out: string;
}

/** A resolved study. */
export interface Study {
  /** The study file as given. */
  readonly file: string;
  /** `study:`. */
  readonly name: string;
  /** The study file's directory, absolute: relative paths of the file resolve against it. */
  readonly dir: string;
  /** The output root, absolute. */
  readonly out: string;
  /** Imports first, then steps, each in file order. */
  readonly nodes: readonly StudyNode[];
  /** `report:`. */
  readonly report: boolean;
  /** `paper:`. */
  readonly paper: StudyFile["paper"];
}

/** Where the build stands. */
export interface ResolveContext {
  /** The directory relative paths on the command line resolve against (the user's). */
  readonly cwd: string;
  /** `--out` of `gate build`, relative to `cwd`; overrides the file's `out:`. */
  readonly out?: string;
  /** Whether a path exists (a stub in tests). @default a `Deno.statSync` */
  readonly exists?: (path: string) => boolean;
}

/**
 * Names under the output root that are not a step's: the study-wide
 * outputs, the graph files and the build's own state and lock
 * (`.gatelab-build.json`, `.gatelab-build.gatelab-lock`).
 */
export function reservedIds(study: Pick<StudyFile, "report" | "paper">): string[] {
  return [
    "tables",
    "graph",
    "gatelab-build",
    ...(study.report ? ["report"] : []),
    ...(study.paper ? ["paper"] : []),
  ];
}

/**
 * Resolves a parsed study: ids (given or derived), inputs, dependencies
 * and each command line. A path that does not exist, an input that is
 * both a step and a path, a duplicate id, two entries writing one
 * `<out>/<id>` and a cycle are issues, one per mistake, with the line.
 *
 * The default id of a step is the name of its first input (the last part
 * of its path without an extension; a gate directory as `gate import` names
 * them, `<checkpoint>/gate` or `<checkpoint>/gate-<round>`, by both:
 * `ck-200`, `ck-200-r1`), several pooled inputs joined with `+`; for any
 * command but `analyze` the command's name comes first:
 * `heldout-ck-200`. Derived ids never depend on other steps, so adding a
 * step renames none; two equal ones are an issue asking for an `id:`.
 *
 * @example
 * ```ts
 * import { parseStudyFile } from "./study_file.ts";
 * import { resolveStudy } from "./resolve.ts";
 * import { deepEqual } from "node:assert/strict";
 * const text = `study: s
 * steps:
 *   - analyze: runs/ck-200/gate
 *     bootstrap: 200
 *   - plan-power:
 *     from: ck-200
 * `;
 * const parsed = parseStudyFile(text, "study/gatelab.yaml");
 * if (!parsed.ok) throw new Error("not parsed");
 * const exists = (path: string) => path.includes("/runs/"); // the runs are there
 * const study = resolveStudy(parsed.study, { cwd: "/home/u", exists });
 * if (!("nodes" in study)) throw new Error(study.issues[0]!.message);
 * deepEqual(study.nodes.map((n) => [n.id, n.argv.join(" "), n.upstream]), [
 *   ["ck-200", "analyze study/runs/ck-200/gate --bootstrap 200 --out study/out/ck-200", []],
 *   ["plan-power-ck-200", "plan-power --from study/out/ck-200 --out study/out/plan-power-ck-200", ["ck-200"]],
 * ]);
 * ```
 */
export function resolveStudy(
  file: StudyFile,
  context: ResolveContext,
): Study | { readonly issues: Issue[] } {
  const r = resolving(file, context);
  const entries = [...file.imports, ...file.steps];
  const ids = entries.map((e) => e.id?.text ?? defaultId(e));
  checkIds(r, entries, ids);
  const nodes: StudyNode[] = entries.map((entry, i) => resolveNode(r, entry, ids[i]!));
  if (r.issues.length === 0) {
    for (const ring of cycles(nodes)) {
      const first = nodes.find((n) => n.id === ring[0])!;
      addIssue(r, "dependency_cycle", first, `a cycle: ${[...ring, ring[0]].join(" -> ")}`);
    }
  }
  if (r.issues.length > 0) return { issues: r.issues };
  return {
    file: file.file,
    name: file.name,
    dir: r.dir,
    out: r.out,
    nodes,
    report: file.report,
    paper: file.paper,
  };
}

/** What the phases of {@linkcode resolveStudy} share: where the study stands, its ids, its issues. */
interface Resolving {
  readonly file: StudyFile;
  readonly cwd: string;
  /** The study file's directory, absolute. */
  readonly dir: string;
  /** The output root, absolute. */
  readonly out: string;
  readonly exists: (path: string) => boolean;
  /** Each valid id to its entry's index (imports first, then steps). */
  readonly byId: Map<string, number>;
  /** The issues found so far, in the order found. */
  readonly issues: Issue[];
}

function resolving(file: StudyFile, context: ResolveContext): Resolving {
  const { cwd } = context;
  const dir = dirname(resolve(cwd, file.file));
  const out = context.out !== undefined
    ? resolve(cwd, context.out)
    : resolve(dir, file.out?.text ?? "out");
  return { file, cwd, dir, out, exists: context.exists ?? existsSync, byId: new Map(), issues: [] };
}

function addIssue(
  r: Resolving,
  code: Issue["code"],
  at: { line: number; field: string },
  message: string,
): void {
  r.issues.push({ code, file: r.file.file, line: at.line, path: at.field, message });
}

/**
 * Checks every entry's id (a directory name, not one of the build's own, not
 * equal to an earlier one in any case) and records the valid ones in `r.byId`.
 */
function checkIds(r: Resolving, entries: readonly StudyEntry[], ids: readonly string[]): void {
  const reserved = reservedIds(r.file);
  entries.forEach((entry, i) => {
    const id = ids[i]!;
    const at = entry.id ?? entry;
    if (!STUDY_ID.test(id) || id.endsWith(".failed")) {
      addIssue(
        r,
        "schema_error",
        at,
        `the derived id "${id}" is not a directory name; give the step an id:`,
      );
      return;
    }
    if (reserved.includes(id)) {
      addIssue(
        r,
        "duplicate_id",
        at,
        `${id} is the build's own <out>/${id}; give the ${entry.kind} another id:`,
      );
      return;
    }
    const twin = [...r.byId].find(([other]) => other.toLowerCase() === id.toLowerCase());
    if (twin !== undefined) {
      const first = entries[twin[1]]!;
      const how = twin[0] === id ? `id ${id} is also` : `id ${id} differs only in case from`;
      addIssue(
        r,
        "duplicate_id",
        at,
        `${how} ${first.field}'s (line ${first.line}): two entries cannot write one <out>/${id}; ` +
          "give one of them another id:",
      );
      return;
    }
    r.byId.set(id, i);
  });
}

/** What one entry reads, collected as its values are resolved. */
interface EntryReads {
  /** Resolves an input value to its text on the command line, recording what it reads. */
  readonly input: (v: WrittenValue) => string;
  readonly upstream: Set<string>;
  readonly inputs: string[];
  readonly reads: string[];
}

/**
 * The input resolver of entry `id`: a value is another entry's output (its
 * id first), or a path relative to the study file that must exist; an input
 * that names both, reads its own output, or names nothing is an issue.
 */
function entryReads(r: Resolving, entry: StudyEntry, id: string): EntryReads {
  const upstream = new Set<string>();
  const inputs: string[] = [];
  const reads: string[] = [];
  const shown = (path: string) => shownPath(r.cwd, path);
  const input = (v: WrittenValue): string => {
    const head = v.text.split("/")[0]!;
    const explicit = v.text.startsWith("./") || v.text.startsWith("../") || isAbsolute(v.text);
    const path = resolve(r.dir, v.text);
    // A step cannot read its own output: its own id names a path there (an import from logs/).
    if (!explicit && head === id && !r.exists(path)) {
      addIssue(r, "dependency_cycle", v, `${entry.command} ${id} reads its own output`);
      return v.text;
    }
    if (!explicit && head !== id && r.byId.has(head)) {
      // An id alone is always the step; a path under it may be meant as a path too.
      if (v.text !== head && r.exists(path)) {
        addIssue(
          r,
          "input_ambiguous",
          v,
          `${v.text} names both ${head} of this study and the path ${shown(path)}; ` +
            `write ./${v.text} for the path, or give ${head} another id:`,
        );
      }
      upstream.add(head);
      reads.push(join(r.out, v.text));
      return shown(join(r.out, v.text));
    }
    if (!r.exists(path)) {
      const near = nearestName(head, [...r.byId.keys()].filter((k) => k !== id));
      addIssue(
        r,
        "input_missing",
        v,
        `${shown(path)} does not exist` + (explicit ? "" : (
          `, and ${head} is no import or step of this study` +
          (near ? `; did you mean ${near}?` : "")
        )),
      );
    }
    inputs.push(path);
    reads.push(path);
    return shown(path);
  };
  return { input, upstream, inputs, reads };
}

/** An entry's command line (without `--out`) and its options as written. */
interface EntryCommand {
  readonly argv: string[];
  readonly options: Record<string, string>;
}

/** A notebook step: the project notebook by name or a notebook file, and its `-p` parameters. */
function notebookCommand(r: Resolving, entry: StudyEntry, reads: EntryReads): EntryCommand {
  const argv: string[] = [];
  const options: Record<string, string> = {};
  if (entry.positionals.length > 0) {
    options["<inputs>"] = entry.positionals.map((v) => v.text).join(" ");
  }
  // A project notebook by name (01, 01_gate_reanalysis), or a notebook file of the user's.
  const notebook = entry.positionals[0]!;
  if (notebook.text.endsWith(".ipynb")) argv.push(reads.input(notebook));
  else argv.push("--notebook", notebook.text);
  for (const [name, value] of entry.parameters ?? []) {
    const resolved = notebookValue(
      value,
      (text) => r.byId.has(text.split("/")[0]!) ? reads.input({ ...entry, text }) : text,
    );
    options[`p ${name}`] = JSON.stringify(value);
    argv.push("-p", name, resolved);
  }
  return { argv, options };
}

/** A `gate` command: its words, its positionals and options, inputs and paths resolved. */
function gateCommand(r: Resolving, entry: StudyEntry, reads: EntryReads): EntryCommand {
  const fact = commandFact(entry.command)!;
  const argv: string[] = [...entry.command.split(" ")];
  const options: Record<string, string> = {};
  if (entry.positionals.length > 0) {
    options["<inputs>"] = entry.positionals.map((v) => v.text).join(" ");
  }
  const role = fact.positionals.role;
  for (const v of entry.positionals) argv.push(role === "input" ? reads.input(v) : v.text);
  for (const option of entry.options) {
    const decl = fact.options.find((o) => o.name === option.name)!;
    if (option.values === true) {
      argv.push(`--${option.name}`);
      options[option.name] = "true";
      continue;
    }
    options[option.name] = option.values.map((v) => v.text).join(" ");
    for (const v of option.values) {
      const text = decl.role === "input"
        ? reads.input(v)
        : decl.role === "output" || decl.path
        ? shownPath(r.cwd, resolve(r.dir, v.text))
        : v.text;
      argv.push(`--${option.name}`, text);
    }
  }
  return { argv, options };
}

/** One entry resolved: its command line, what it reads, where it writes. */
function resolveNode(r: Resolving, entry: StudyEntry, id: string): StudyNode {
  const reads = entryReads(r, entry, id);
  const { argv, options } = entry.command === "notebook"
    ? notebookCommand(r, entry, reads)
    : gateCommand(r, entry, reads);
  const dest = join(r.out, id);
  argv.push("--out", shownPath(r.cwd, dest));
  return {
    id,
    kind: entry.kind,
    command: entry.command,
    ...(entry.title !== undefined ? { title: entry.title } : {}),
    refused: entry.refused,
    line: entry.line,
    field: entry.field,
    argv,
    options,
    inputs: [...new Set(reads.inputs)].sort(),
    upstream: [...reads.upstream].sort(),
    reads: [...new Set(reads.reads)],
    out: dest,
  };
}

/** A path as a user in `cwd` types it: relative when it is inside `cwd`, else absolute. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** A notebook parameter's text (`-p NAME VALUE`), its step references resolved. */
function notebookValue(value: unknown, reference: (text: string) => string): string {
  if (typeof value === "string") return reference(value);
  if (Array.isArray(value)) {
    return JSON.stringify(value.map((v) => typeof v === "string" ? reference(v) : v));
  }
  return JSON.stringify(value);
}

/** The default id of an entry (see {@linkcode resolveStudy}). */
function defaultId(entry: StudyEntry): string {
  const fact = commandFact(entry.command)!;
  const named = entry.positionals.length > 0
    ? entry.positionals
    : entry.options.find((o) => o.name === fact.names)?.values;
  const names = named === undefined || named === true ? [] : named.map((v) => nameOf(v.text));
  const name = names.join("+");
  if (entry.command === "analyze" && name !== "") return name;
  const command = entry.command.replace(" ", "-");
  return name === "" ? command : `${command}-${name}`;
}

/**
 * An input's name: its last part without an extension (`steps/steps.jsonl`
 * -> `steps`); a gate directory as `gate import` names it, `<checkpoint>/gate`
 * or `<checkpoint>/gate-<round>`, is named by both (`runs/ck-200/gate` ->
 * `ck-200`, `runs/ck-200/gate-r1` -> `ck-200-r1`).
 */
function nameOf(text: string): string {
  const parts = text.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
  const last = parts.pop() ?? "";
  const gate = /^gate(?:-(.+))?$/.exec(last);
  if (gate !== null && parts.length > 0) {
    const checkpoint = parts.pop()!;
    return gate[1] === undefined || gate[1] === checkpoint
      ? checkpoint
      : `${checkpoint}-${gate[1]}`;
  }
  return last.replace(/(?<=.)\.[A-Za-z][A-Za-z0-9]*$/, "");
}

/** Every cycle of the dependency graph, each once, as the ids around it. */
export function cycles(nodes: readonly Pick<StudyNode, "id" | "upstream">[]): string[][] {
  const next = new Map(nodes.map((n) => [n.id, n.upstream]));
  const state = new Map<string, "open" | "done">();
  const found: string[][] = [];
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, "open");
    stack.push(id);
    for (const up of next.get(id) ?? []) {
      if (state.get(up) === "open") found.push(stack.slice(stack.indexOf(up)).reverse());
      else if (!state.has(up)) visit(up);
    }
    stack.pop();
    state.set(id, "done");
  };
  for (const n of nodes) if (!state.has(n.id)) visit(n.id);
  return found;
}

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
