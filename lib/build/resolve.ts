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
  const { cwd } = context;
  const exists = context.exists ?? existsSync;
  const dir = dirname(resolve(cwd, file.file));
  const out = context.out !== undefined
    ? resolve(cwd, context.out)
    : resolve(dir, file.out?.text ?? "out");
  const issues: Issue[] = [];
  const issue = (code: Issue["code"], at: { line: number; field: string }, message: string) =>
    issues.push({ code, file: file.file, line: at.line, path: at.field, message });
  const shown = (path: string) => shownPath(cwd, path);

  const entries = [...file.imports, ...file.steps];
  const ids = entries.map((e) => e.id?.text ?? defaultId(e));
  const byId = new Map<string, number>();
  const reserved = reservedIds(file);
  entries.forEach((entry, i) => {
    const id = ids[i]!;
    const at = entry.id ?? entry;
    if (!STUDY_ID.test(id) || id.endsWith(".failed")) {
      issue(
        "schema_error",
        at,
        `the derived id "${id}" is not a directory name; give the step an id:`,
      );
      return;
    }
    if (reserved.includes(id)) {
      issue(
        "duplicate_id",
        at,
        `${id} is the build's own <out>/${id}; give the ${entry.kind} another id:`,
      );
      return;
    }
    const twin = [...byId].find(([other]) => other.toLowerCase() === id.toLowerCase());
    if (twin !== undefined) {
      const first = entries[twin[1]]!;
      const how = twin[0] === id ? `id ${id} is also` : `id ${id} differs only in case from`;
      issue(
        "duplicate_id",
        at,
        `${how} ${first.field}'s (line ${first.line}): two entries cannot write one <out>/${id}; ` +
          "give one of them another id:",
      );
      return;
    }
    byId.set(id, i);
  });

  const nodes: StudyNode[] = entries.map((entry, i) => {
    const id = ids[i]!;
    const fact = commandFact(entry.command)!;
    const upstream = new Set<string>();
    const inputs: string[] = [];
    const reads: string[] = [];
    const input = (v: WrittenValue): string => {
      const head = v.text.split("/")[0]!;
      const explicit = v.text.startsWith("./") || v.text.startsWith("../") || isAbsolute(v.text);
      const path = resolve(dir, v.text);
      // A step cannot read its own output: its own id names a path there (an import from logs/).
      if (!explicit && head === id && !exists(path)) {
        issue("dependency_cycle", v, `${entry.command} ${id} reads its own output`);
        return v.text;
      }
      if (!explicit && head !== id && byId.has(head)) {
        // An id alone is always the step; a path under it may be meant as a path too.
        if (v.text !== head && exists(path)) {
          issue(
            "input_ambiguous",
            v,
            `${v.text} names both ${head} of this study and the path ${shown(path)}; ` +
              `write ./${v.text} for the path, or give ${head} another id:`,
          );
        }
        upstream.add(head);
        reads.push(join(out, v.text));
        return shown(join(out, v.text));
      }
      if (!exists(path)) {
        const near = nearestName(head, [...byId.keys()].filter((k) => k !== id));
        issue(
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
    const pathValue = (v: WrittenValue) => shown(resolve(dir, v.text));
    const argv: string[] = [];
    const options: Record<string, string> = {};
    if (entry.positionals.length > 0) {
      options["<inputs>"] = entry.positionals.map((v) => v.text).join(" ");
    }
    if (entry.command === "notebook") {
      // A project notebook by name (01, 01_gate_reanalysis), or a notebook file of the user's.
      const notebook = entry.positionals[0]!;
      if (notebook.text.endsWith(".ipynb")) argv.push(input(notebook));
      else argv.push("--notebook", notebook.text);
      for (const [name, value] of entry.parameters ?? []) {
        const resolved = notebookValue(
          value,
          (text) => byId.has(text.split("/")[0]!) ? input({ ...entry, text }) : text,
        );
        options[`p ${name}`] = JSON.stringify(value);
        argv.push("-p", name, resolved);
      }
    } else {
      argv.push(...entry.command.split(" "));
      const role = fact.positionals.role;
      for (const v of entry.positionals) argv.push(role === "input" ? input(v) : v.text);
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
            ? input(v)
            : decl.role === "output" || decl.path
            ? pathValue(v)
            : v.text;
          argv.push(`--${option.name}`, text);
        }
      }
    }
    const dest = join(out, id);
    argv.push("--out", shown(dest));
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
      inputs: [...new Set(inputs)].sort(),
      upstream: [...upstream].sort(),
      reads: [...new Set(reads)],
      out: dest,
    };
  });
  if (issues.length === 0) {
    for (const ring of cycles(nodes)) {
      const first = nodes.find((n) => n.id === ring[0])!;
      issue("dependency_cycle", first, `a cycle: ${[...ring, ring[0]].join(" -> ")}`);
    }
  }
  if (issues.length > 0) return { issues };
  return {
    file: file.file,
    name: file.name,
    dir,
    out,
    nodes,
    report: file.report,
    paper: file.paper,
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
