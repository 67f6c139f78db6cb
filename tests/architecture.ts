/**
 * The house rules of lib/ as a pure function over its import graph, and the
 * reader that builds that graph from `deno info --json`. docs/architecture.md
 * describes the floors; tests/architecture_test.ts runs the check on the
 * real graph and on synthetic graphs that break each rule. The bundle rule
 * is checked on lib/report/bundles.ts's `BUNDLES` (each stage's bundle
 * object) and on the report's imports. `functionSpans` measures every
 * function body of a source (a scanner of tokens that skips strings,
 * template literals, regular expressions and comments) for the size rule,
 * `checkFunctionLengths`. `checkStageFileNames` holds a stage's document
 * to `document.ts` and its tidy tables to `<stage>_tidy.ts`.
 *
 * @module
 */
import type { AnyBundle } from "../lib/table/bundle.ts";
import { type Table, toMarkdown } from "../lib/table/table.ts";

/** One import: `from` imports `to` (paths relative to lib/, e.g. "infer/bootstrap/bca.ts"). */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** True when every import of `to` in `from` is `import type` / `export type`. */
  readonly typeOnly: boolean;
}

/** The files of lib/ and the imports between them. */
export interface ImportGraph {
  readonly files: readonly string[];
  readonly edges: readonly ImportEdge[];
}

/** A floor: a name and the top-level folders of lib/ on it ("mod.ts" is the face). */
export interface Floor {
  readonly name: string;
  readonly folders: readonly string[];
}

/**
 * The floors of lib/, lowest first. A file may import files on its own floor
 * or below, never above; within a floor, imports go sideways (the cycle rule
 * still holds file by file). Derived from the import graph as it is: see
 * docs/architecture.md for what each floor holds and where it is headed.
 */
export const FLOORS: readonly Floor[] = [
  { name: "math", folders: ["math"] },
  { name: "core", folders: ["core"] },
  { name: "contract", folders: ["contract", "tidy"] },
  { name: "engine", folders: ["fit", "select", "load", "cache", "infer"] },
  { name: "render", folders: ["table", "figures"] },
  {
    name: "stages",
    folders: [
      "validate",
      "analyze",
      "heldout",
      "power",
      "reward",
      "study",
      "gateb",
      "firewall",
      "ledger_audit",
      "import",
      "explore",
      "sql",
      "sequential",
      "ladder",
      "history",
    ],
  },
  { name: "assembly", folders: ["paper", "report", "demo"] },
  { name: "commands", folders: ["cli", "build"] },
  { name: "face", folders: ["mod.ts", "face"] },
];

/** One broken rule. */
export interface Violation {
  readonly rule: "cycle" | "upward" | "private" | "unplaced";
  /** The files involved ("a.ts -> b.ts" for an import, the ring for a cycle). */
  readonly where: string;
  readonly message: string;
}

/** Top-level folder of a lib/ path ("mod.ts" for the face itself). */
export function topFolder(path: string): string {
  const slash = path.indexOf("/");
  return slash < 0 ? path : path.slice(0, slash);
}

function directory(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Checks the three rules of docs/architecture.md on an import graph:
 * (a) no cycle between files, type-only imports included; (b) no import
 * from a lower floor to a higher one (and every folder on a floor);
 * (c) a file whose name starts with `_` is imported only from its own
 * directory.
 *
 * @returns Every violation, cycles first, each once; empty when the graph keeps the rules.
 */
export function checkArchitecture(
  graph: ImportGraph,
  floors: readonly Floor[] = FLOORS,
): Violation[] {
  const out: Violation[] = [];
  out.push(...cycles(graph));
  const floorOf = new Map<string, number>();
  floors.forEach((floor, i) => floor.folders.forEach((f) => floorOf.set(f, i)));
  const unplaced = new Set<string>();
  for (const file of graph.files) {
    const folder = topFolder(file);
    if (!floorOf.has(folder) && !unplaced.has(folder)) {
      unplaced.add(folder);
      out.push({
        rule: "unplaced",
        where: file,
        message: `lib/${folder} is on no floor: add it to FLOORS (tests/architecture.ts) ` +
          `and to docs/architecture.md`,
      });
    }
  }
  for (const edge of graph.edges) {
    const where = `${edge.from} -> ${edge.to}`;
    const a = floorOf.get(topFolder(edge.from)), b = floorOf.get(topFolder(edge.to));
    if (a !== undefined && b !== undefined && b > a) {
      out.push({
        rule: "upward",
        where,
        message: `lib/${edge.from} (floor ${floors[a]!.name}) imports lib/${edge.to}, ` +
          `which is on the higher floor ${floors[b]!.name}`,
      });
    }
    if (baseName(edge.to).startsWith("_") && directory(edge.to) !== directory(edge.from)) {
      out.push({
        rule: "private",
        where,
        message: `lib/${edge.from} imports lib/${edge.to}, private to lib/${directory(edge.to)}: ` +
          `drop the _ from its name or move it`,
      });
    }
  }
  return out;
}

/** Strongly connected components (Tarjan) with more than one file, or a file importing itself. */
function cycles(graph: ImportGraph): Violation[] {
  const next = new Map<string, string[]>();
  for (const f of graph.files) next.set(f, []);
  for (const e of graph.edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    if (!next.has(e.to)) next.set(e.to, []);
    next.get(e.from)!.push(e.to);
  }
  for (const list of next.values()) list.sort();
  const index = new Map<string, number>(), low = new Map<string, number>();
  const onStack = new Set<string>(), stack: string[] = [];
  const out: Violation[] = [];
  let counter = 0;
  const visit = (root: string): void => {
    // Iterative Tarjan: [node, position in its successor list].
    const work: [string, number][] = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const succ = next.get(v)!;
      if (i < succ.length) {
        top[1] = i + 1;
        const w = succ[i]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const ring: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          ring.push(w);
        } while (w !== v);
        if (ring.length > 1 || succ.includes(v)) {
          ring.sort();
          const types = graph.edges.filter((e) => ring.includes(e.from) && ring.includes(e.to));
          const kind = types.every((e) => e.typeOnly) ? " (type-only imports)" : "";
          out.push({
            rule: "cycle",
            where: ring.join(", "),
            message: `import cycle${kind} between lib/${ring.join(", lib/")}`,
          });
        }
      }
    }
  };
  for (const f of [...next.keys()].sort()) if (!index.has(f)) visit(f);
  return out;
}

interface DenoInfoModule {
  readonly specifier: string;
  readonly dependencies?: readonly {
    readonly code?: { readonly specifier?: string };
    readonly type?: { readonly specifier?: string };
  }[];
}

/**
 * The import graph of every .ts file under `libDir`, from `deno info --json`
 * run on `entries` and then on each file no entry reached (workers, scripts),
 * until every file is in; edges sorted by importer, then imported file.
 * Needs --allow-run=deno and --allow-read.
 */
export async function readImportGraph(
  libDir: string,
  entries: readonly string[],
): Promise<ImportGraph> {
  const root = new URL(libDir.endsWith("/") ? libDir : libDir + "/", `file://${Deno.cwd()}/`);
  const all = new Set<string>();
  const walk = async (dir: URL, rel: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await walk(new URL(entry.name + "/", dir), rel + entry.name + "/");
      else if (entry.isFile && entry.name.endsWith(".ts")) all.add(rel + entry.name);
    }
  };
  await walk(root, "");
  const edges = new Map<string, ImportEdge>();
  const seen = new Set<string>();
  const relative = (specifier: string): string | null =>
    specifier.startsWith(root.href) ? decodeURIComponent(specifier.slice(root.href.length)) : null;
  const pending = [...entries];
  while (true) {
    const entry = pending.shift() ?? [...all].sort().find((f) => !seen.has(f));
    if (entry === undefined) break;
    if (seen.has(entry)) continue;
    const { code, stdout, stderr } = await new Deno.Command("deno", {
      args: ["info", "--json", new URL(entry, root).pathname],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(stderr)}`);
    }
    const info = JSON.parse(new TextDecoder().decode(stdout)) as { modules: DenoInfoModule[] };
    for (const m of info.modules) {
      const from = relative(m.specifier);
      if (from === null || seen.has(from)) continue;
      seen.add(from);
      const kinds = new Map<string, boolean>();
      for (const dep of m.dependencies ?? []) {
        const codeTo = dep.code?.specifier ? relative(dep.code.specifier) : null;
        const typeTo = dep.type?.specifier ? relative(dep.type.specifier) : null;
        if (codeTo !== null) kinds.set(codeTo, false);
        if (typeTo !== null && !kinds.has(typeTo)) kinds.set(typeTo, true);
      }
      for (const [to, typeOnly] of kinds) {
        const key = `${from}\n${to}`;
        const old = edges.get(key);
        edges.set(key, { from, to, typeOnly: (old?.typeOnly ?? true) && typeOnly });
      }
    }
    seen.add(entry);
  }
  const sorted = [...edges.values()].sort((a, b) =>
    a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0
  );
  return { files: [...all].sort(), edges: sorted };
}

/** The fields every bundle has, and what each must be (lib/table/bundle.ts). */
const BUNDLE_FIELDS: readonly [keyof AnyBundle, "string" | "function" | "object"][] = [
  ["stage", "string"],
  ["file", "string"],
  ["schema", "object"],
  ["kind", "object"],
  ["commands", "object"],
  ["tidy", "object"],
  ["read", "function"],
  ["tables", "function"],
  ["files", "function"],
];

/**
 * Checks the bundle rule on `BUNDLES` (lib/report/bundles.ts): each entry's
 * bundle has every field of `Bundle` (lib/table/bundle.ts) with its kind
 * (`figures` and `section`, where present, functions; a section exactly
 * when it has section kinds), is exported by its stage's mod.ts, names a
 * stage once; and every stage with a `files.ts` has a bundle there.
 *
 * @param bundles The bundles (`BUNDLES.map((b) => b.bundle)`).
 * @param modules Stage folder to the namespace of its mod.ts.
 * @param withFiles The stage folders that have a `files.ts`.
 * @returns One message per broken rule.
 */
export function checkBundles(
  bundles: readonly AnyBundle[],
  modules: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
  withFiles: readonly string[],
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const b of bundles) {
    const record = b as unknown as Readonly<Record<string, unknown>>;
    const stage = typeof b.stage === "string" ? b.stage : "?";
    const name = `the bundle of lib/${stage} (${typeof b.file === "string" ? b.file : "?"})`;
    for (const [field, kind] of BUNDLE_FIELDS) {
      const value = record[field];
      if (value === undefined) out.push(`${name} has no ${field}`);
      else if (typeof value !== kind || value === null) {
        out.push(`${name} has ${field}, but not as a ${kind}`);
      }
    }
    for (const field of ["figures", "section"]) {
      const value = record[field];
      if (value !== undefined && typeof value !== "function") {
        out.push(`${name} has ${field}, but not as a function`);
      }
    }
    if (typeof b.file === "string" && !b.file.endsWith(".json")) {
      out.push(`${name}: its file is not a JSON document`);
    }
    const schema = record["schema"] as { safeParse?: unknown } | undefined;
    if (schema && typeof schema.safeParse !== "function") {
      out.push(`${name}: schema is no zod schema`);
    }
    const kinds = Array.isArray(b.kind) ? b.kind : [];
    if ((kinds.length > 0) !== (typeof b.section === "function")) {
      out.push(
        kinds.length > 0
          ? `${name} has section kinds but no section`
          : `${name} has a section but no section kind`,
      );
    }
    if (seen.has(stage)) out.push(`${name}: lib/${stage} has more than one bundle`);
    seen.add(stage);
    const mod = modules.get(stage);
    if (mod === undefined) out.push(`lib/${stage}/mod.ts was not loaded`);
    else if (!Object.values(mod).includes(b)) {
      out.push(`lib/${stage}/mod.ts does not export ${name}`);
    }
  }
  for (const stage of withFiles) {
    if (!seen.has(stage)) {
      out.push(`lib/${stage} has a files.ts but no bundle in BUNDLES (lib/report/bundles.ts)`);
    }
  }
  return out;
}

/** One output a command wrote, as {@linkcode checkTidy} reads it. */
export interface WrittenOutput {
  /** Where it is, for the messages (a demo step's id, a fixture's name). */
  readonly label: string;
  /** The command that wrote it, as typed after `gate` (`"plan-power"`). */
  readonly command: string;
  /** The files its `.gatelab-output.json` lists. */
  readonly files: readonly string[];
}

/**
 * Checks each bundle's `commands` and `tidy` (lib/table/bundle.ts) against
 * outputs its commands wrote: every command a bundle names is one of
 * `commands` (the command table's names) and names one bundle; an output
 * lists only Parquet tables (at its top level) its command's bundle
 * declares, and a command without a bundle writes none; every table a
 * bundle declares is written by one of the outputs of its commands.
 *
 * @param bundles The bundles (`BUNDLES.map((b) => b.bundle)`).
 * @param outputs Outputs written by the commands (the demo's steps and fixtures).
 * @param commands The command table's names (`COMMANDS`).
 * @returns One message per broken rule.
 */
export function checkTidy(
  bundles: readonly AnyBundle[],
  outputs: readonly WrittenOutput[],
  commands: readonly string[],
): string[] {
  const out: string[] = [];
  const name = (b: AnyBundle) => `the bundle of lib/${b.stage} (${b.file})`;
  const byCommand = new Map<string, AnyBundle>();
  for (const b of bundles) {
    for (const c of b.commands) {
      if (!commands.includes(c)) out.push(`${name(b)} names gate ${c}, which is no command`);
      else if (byCommand.has(c)) out.push(`${name(b)} names gate ${c}, as another bundle does`);
      else byCommand.set(c, b);
    }
  }
  const written = new Map<AnyBundle, Set<string>>();
  for (const o of outputs) {
    const tables = o.files.filter((f) => f.endsWith(".parquet") && !f.includes("/"))
      .map((f) => f.slice(0, -".parquet".length));
    const b = byCommand.get(o.command);
    if (b === undefined) {
      for (const t of tables) {
        out.push(`${o.label}: gate ${o.command} wrote ${t}.parquet, and no bundle names it`);
      }
      continue;
    }
    const seen = written.get(b) ?? new Set<string>();
    written.set(b, seen);
    for (const t of tables) {
      seen.add(t);
      if (!b.tidy.includes(t)) {
        out.push(`${o.label}: gate ${o.command} wrote ${t}.parquet, not in the tidy of ${name(b)}`);
      }
    }
  }
  for (const b of bundles) {
    for (const t of b.tidy) {
      if (!written.get(b)?.has(t)) {
        out.push(`${name(b)} declares the tidy table ${t}, which no output checked writes`);
      }
    }
  }
  return out;
}

/**
 * Checks that a report section shows its bundle's tables: the tables of
 * `section(doc)` are `tables(doc)`, in that order, after `front` tables of
 * the section's own (ladder's decision table, sequential's overview).
 *
 * @param name The bundle, for the messages.
 * @param shown The section's tables, in order.
 * @param tables The bundle's `tables(doc)`.
 * @param front How many tables the section puts in front of them.
 * @returns One message when they differ, naming the first table out of place.
 */
export function checkSectionTables(
  name: string,
  shown: readonly Table[],
  tables: readonly Table[],
  front = 0,
): string[] {
  const text = (ts: readonly Table[]) => ts.map(toMarkdown);
  const a = text(shown.slice(front)), b = text(tables);
  const at = a.findIndex((t, i) => t !== b[i]);
  if (at === -1 && a.length === b.length) return [];
  const i = at === -1 ? a.length : at;
  const caption = (shown[front + i] ?? tables[i])?.caption ?? "?";
  return [
    `${name}: its section's table ${front + i + 1} ("${caption}") is not its tables(doc)'s ${
      i + 1
    }: a section shows its bundle's tables, in their order`,
  ];
}

/**
 * Checks that a section imports no table builder of its own: from a
 * `tables.ts` or `*_tables.ts` it imports only `allowed` (the names its
 * bundle's `tables` is made of).
 *
 * @param source The section's text.
 * @param file Its path relative to lib/.
 * @param allowed The names it may import from a tables file.
 * @returns One message per other name.
 */
export function checkSectionImports(
  source: string,
  file: string,
  allowed: readonly string[],
): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/g)) {
    if (!/(^|\/|_)tables\.ts$/.test(m[2]!)) continue;
    for (const part of m[1]!.split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!;
      if (name !== "" && !allowed.includes(name)) {
        out.push(
          `lib/${file} imports ${name} from ${m[2]}: a section shows its bundle's tables (${
            allowed.join(", ")
          }), never a builder of its own`,
        );
      }
    }
  }
  return out;
}

/** The lib/-relative files a module imports or re-exports (comments, where doc examples live, skipped). */
export function importedFiles(source: string, file: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\b[^;"']*?\bfrom\s+["']([^"']+)["']/g)) {
    const spec = m[1]!;
    if (!spec.startsWith(".")) continue;
    const parts = directory(file) === "" ? [] : directory(file).split("/");
    for (const p of spec.split("/")) {
      if (p === "..") parts.pop();
      else if (p !== ".") parts.push(p);
    }
    out.push(parts.join("/"));
  }
  return out;
}

/**
 * Checks the report's imports against the bundle rule: the registry
 * (lib/report/bundles.ts) imports a stage only through the stage's
 * `bundle.ts`, and the report's other files (lib/report/report.ts) import
 * no stage at all; neither imports a table or figure builder (a
 * `tables.ts`/`figures.ts`/`*_tables.ts`/`*_figures.ts` anywhere, a file of
 * lib/figures but the `render.ts` types).
 *
 * @param source The text of the file.
 * @param file Its path relative to lib/.
 * @returns One message per import that breaks the rule.
 */
export function checkRegistry(
  source: string,
  file = "report/bundles.ts",
  floors: readonly Floor[] = FLOORS,
): string[] {
  const stages = new Set(floors.find((f) => f.name === "stages")?.folders ?? []);
  const registry = baseName(file) === "bundles.ts";
  const out: string[] = [];
  for (const to of importedFiles(source, file)) {
    const base = baseName(to);
    if (topFolder(to) === topFolder(file) || (registry && base === "bundle.ts")) continue;
    const builder = /(^|_)(tables|figures)\.ts$/.test(base) ||
      (topFolder(to) === "figures" && base !== "render.ts");
    if (builder || stages.has(topFolder(to))) {
      out.push(
        `lib/${file} imports lib/${to}: the report reaches each stage through its bundle ` +
          `(lib/<stage>/bundle.ts, listed in lib/report/bundles.ts), never its ` +
          `${builder ? "tables or figures" : "other files"}`,
      );
    }
  }
  return out;
}

/**
 * The file-name rule (docs/architecture.md, "A stage's files"): in a stage
 * folder, the file that builds the stage's JSON document is `document.ts`
 * (never `*_document.ts`, `*_json.ts` or `*documents.ts`), and its tidy
 * tables, however many, are one file named after the folder,
 * `<stage>_tidy.ts`.
 *
 * @param files Paths relative to lib/ (every .ts file, as `readLibFiles` lists them).
 * @param floors The floors (the stage folders are the `stages` floor's).
 * @returns One message per misnamed file, naming it and the name it should have.
 */
export function checkStageFileNames(
  files: readonly string[],
  floors: readonly Floor[] = FLOORS,
): string[] {
  const stages = new Set(floors.find((f) => f.name === "stages")?.folders ?? []);
  const out: string[] = [];
  for (const file of files) {
    const stage = topFolder(file), base = baseName(file);
    if (!stages.has(stage) || stage === file) continue;
    if (/(_document|_json|documents)\.ts$/.test(base)) {
      out.push(
        `lib/${file} builds a document: name it lib/${stage}/document.ts ` +
          `(one file name per role: document.ts, tables.ts, ${stage}_tidy.ts)`,
      );
    } else if (base.endsWith("_tidy.ts") && base !== `${stage}_tidy.ts`) {
      out.push(
        `lib/${file} is a tidy table: name it lib/${stage}/${stage}_tidy.ts ` +
          `(one file, named after the stage, holds all of its tidy tables)`,
      );
    }
  }
  return out;
}

/** Every .ts file under `libDir`, relative to it, sorted. */
export async function readLibFiles(libDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`, `${rel}${entry.name}/`);
      else if (entry.isFile && entry.name.endsWith(".ts")) out.push(rel + entry.name);
    }
  };
  await walk(libDir.replace(/\/$/, ""), "");
  return out.sort();
}

// ---------------------------------------------------------------------------
// The size rule: no function in lib/ over FUNCTION_LINE_LIMIT lines.
// ---------------------------------------------------------------------------

/** The longest a function of lib/ may be, in lines from its name to its closing brace. */
export const FUNCTION_LINE_LIMIT = 120;

/**
 * Functions allowed over the limit, as `file:name` (file relative to lib/).
 * Empty: every function of lib/ keeps the limit. Do not add to it; split the
 * function instead.
 */
export const LONG_FUNCTIONS_ALLOWED: readonly string[] = [];

/** One token of a TypeScript source: what the function scanner needs, nothing more. */
interface Token {
  readonly kind: "id" | "num" | "str" | "re" | "punct";
  readonly text: string;
  readonly line: number;
}

/** Keywords after which a `/` starts a regular expression, and that never name a function. */
const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "with",
  "return",
  "typeof",
  "await",
  "yield",
  "in",
  "of",
  "new",
  "void",
  "delete",
  "throw",
  "case",
  "else",
  "do",
  "instanceof",
  "super",
  "import",
]);
/** Type operators after which a type operand follows (`keyof T`, `x is T`). */
const TYPE_PREFIXES = new Set([
  "keyof",
  "typeof",
  "readonly",
  "infer",
  "is",
  "asserts",
  "extends",
  "unique",
]);

/**
 * The tokens of a source, with strings, template text, regular expressions
 * and comments each read whole (a brace inside one is no brace), and the
 * code inside `${...}` read as code. A `/` starts a regular expression where
 * an operand may start (after an operator, a keyword, `(`), else it divides.
 */
function tokenize(source: string, file: string): Token[] {
  const out: Token[] = [];
  const braces: ("code" | "template")[] = [];
  let i = 0, line = 1;
  const n = source.length;
  const fail = (what: string): never => {
    throw new Error(`${file}:${line}: the function scanner cannot read ${what}`);
  };
  const regexAllowed = (): boolean => {
    const prev = out[out.length - 1];
    if (prev === undefined) return true;
    if (prev.kind === "num" || prev.kind === "str" || prev.kind === "re") return false;
    if (prev.kind === "id") return KEYWORDS.has(prev.text);
    if (prev.text === "!") {
      // A non-null assertion (`x! / y`) ends an operand; a negation (`!/re/.test(s)`) does not.
      const before = out[out.length - 2];
      return before === undefined || before.kind === "punct" && before.text !== ")" &&
          before.text !== "]" ||
        before.kind === "id" && KEYWORDS.has(before.text);
    }
    return prev.text !== ")" && prev.text !== "]";
  };
  // Scans template text from i (just after ` or the } closing a substitution).
  const template = (): void => {
    const start = line;
    while (true) {
      if (i >= n) fail("an unterminated template literal");
      const c = source[i]!;
      if (c === "\\") {
        if (source[i + 1] === "\n") line++;
        i += 2;
      } else if (c === "`") {
        i++;
        out.push({ kind: "str", text: "`", line: start });
        return;
      } else if (c === "$" && source[i + 1] === "{") {
        i += 2;
        braces.push("template");
        out.push({ kind: "punct", text: "${", line: start });
        return;
      } else {
        if (c === "\n") line++;
        i++;
      }
    }
  };
  while (i < n) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      if (end < 0) fail("an unterminated comment");
      for (let k = i; k < end; k++) if (source[k] === "\n") line++;
      i = end + 2;
    } else if (c === "'" || c === '"') {
      const start = line;
      i++;
      while (source[i] !== c) {
        if (i >= n || source[i] === "\n") fail("an unterminated string");
        if (source[i] === "\\") {
          if (source[i + 1] === "\n") line++;
          i++;
        }
        i++;
      }
      i++;
      out.push({ kind: "str", text: c, line: start });
    } else if (c === "`") {
      i++;
      template();
    } else if (c === "/" && regexAllowed()) {
      const start = line;
      i++;
      let inClass = false;
      while (true) {
        const d = source[i];
        if (d === undefined || d === "\n") fail("an unterminated regular expression");
        if (d === "\\") i++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) break;
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(source[i]!)) i++;
      out.push({ kind: "re", text: "/", line: start });
    } else if (/[A-Za-z_$#]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(source[j]!)) j++;
      out.push({ kind: "id", text: source.slice(i, j), line });
      i = j;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(source[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(source[j]!)) j++;
      out.push({ kind: "num", text: source.slice(i, j), line });
      i = j;
    } else if (c === "=" && source[i + 1] === ">") {
      out.push({ kind: "punct", text: "=>", line });
      i += 2;
    } else if (c === "{") {
      braces.push("code");
      out.push({ kind: "punct", text: c, line });
      i++;
    } else if (c === "}") {
      const kind = braces.pop();
      if (kind === undefined) fail("a } that closes nothing");
      i++;
      if (kind === "template") template();
      else out.push({ kind: "punct", text: c, line });
    } else {
      out.push({ kind: "punct", text: c, line });
      i++;
    }
  }
  if (braces.length > 0) fail("a { that is never closed");
  return out;
}

/** One function, method or arrow function with a block body. */
export interface FunctionSpan {
  readonly name: string;
  /** Line of its name (or of its parameters for an arrow function), 1-based. */
  readonly line: number;
  /** Line of its closing brace. */
  readonly end: number;
  /** Lines from `line` to `end`, both counted. */
  readonly lines: number;
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/**
 * Every function body in a TypeScript source: `function` declarations and
 * expressions, methods, getters and constructors, and arrow functions with a
 * block body, nested ones included, in source order.
 */
export function functionSpans(source: string, file = "<source>"): FunctionSpan[] {
  const t = tokenize(source, file);
  const match = new Int32Array(t.length).fill(-1);
  const stack: number[] = [];
  t.forEach((tok, k) => {
    if (tok.kind !== "punct") return;
    if (OPEN[tok.text] !== undefined) stack.push(k);
    else if (tok.text === ")" || tok.text === "]" || tok.text === "}") {
      const open = stack.pop();
      if (open === undefined || OPEN[t[open]!.text] !== tok.text) {
        throw new Error(`${file}:${tok.line}: the function scanner finds an unmatched ${tok.text}`);
      }
      match[open] = k;
      match[k] = open;
    }
  });
  if (stack.length > 0) {
    throw new Error(
      `${file}:${t[stack[0]!]!.line}: the function scanner finds an unclosed bracket`,
    );
  }
  const is = (k: number, text: string): boolean => t[k]?.kind === "punct" && t[k]!.text === text;
  const isName = (k: number): boolean => t[k]?.kind === "id" && !KEYWORDS.has(t[k]!.text);
  // The body of the function whose parameter list closes at r: the index of its {, or -1.
  const bodyAfterParameters = (r: number): number => {
    if (is(r + 1, "{")) return r + 1;
    if (!is(r + 1, ":")) return -1;
    let k = r + 2, angle = 0, operand = true;
    while (k < t.length) {
      const tok = t[k]!;
      if (tok.kind === "punct" && OPEN[tok.text] !== undefined) {
        if (tok.text === "{" && !operand && angle === 0) return k;
        k = match[k]! + 1;
        operand = false;
        continue;
      }
      if (tok.kind === "punct") {
        if (tok.text === "<") angle++;
        else if (tok.text === ">") angle--;
        else if (!["|", "&", "=>", ".", "?", ":"].includes(tok.text)) {
          if (tok.text !== "," || angle === 0) return -1;
        }
        operand = tok.text !== ">";
      } else {
        operand = tok.kind === "id" && TYPE_PREFIXES.has(tok.text);
      }
      k++;
    }
    return -1;
  };
  // A name for the function whose header starts at token s (an arrow's parameters, `function`).
  const nameBefore = (s: number): string => {
    let k = s - 1;
    if (t[k]?.text === "async") k--;
    if ((is(k, "=") || is(k, ":")) && t[k - 1]?.kind === "id") return t[k - 1]!.text;
    if (is(k, "(") || is(k, ",")) {
      let open = k;
      while (open >= 0 && !is(open, "(")) {
        open = t[open]!.kind === "punct" && match[open]! >= 0 && match[open]! < open
          ? match[open]! - 1
          : open - 1;
      }
      if (open >= 0 && t[open - 1]?.kind === "id") return `(arrow in ${t[open - 1]!.text}())`;
    }
    return "(arrow)";
  };
  const out: FunctionSpan[] = [];
  const add = (name: string, startToken: number, body: number): void => {
    const line = t[startToken]!.line, end = t[match[body]!]!.line;
    out.push({ name, line, end, lines: end - line + 1 });
  };
  for (let k = 0; k < t.length; k++) {
    if (is(k, "{") && is(k - 1, "=>")) {
      // An arrow function: its parameters are `x` or `(...)`, maybe with a return type.
      let s = k - 2;
      for (let back = s, depth = 0; back >= 0 && back > k - 80; back--) {
        const tok = t[back]!;
        if (tok.kind === "punct" && [")", "]", "}", ">"].includes(tok.text)) depth++;
        else if (tok.kind === "punct" && ["(", "[", "{", "<"].includes(tok.text)) {
          if (depth === 0) break;
          depth--;
        } else if (depth === 0 && tok.kind === "punct" && [";", ",", "="].includes(tok.text)) break;
        if (depth === 0 && is(back, ":") && is(back - 1, ")")) {
          s = back - 1;
          break;
        }
      }
      if (is(s, ")")) s = match[s]!;
      add(nameBefore(s), s, k);
    } else if (is(k, ")")) {
      const body = bodyAfterParameters(k);
      if (body < 0) continue;
      let q = match[k]! - 1;
      if (is(q, ">")) {
        let depth = 0;
        for (; q >= 0; q--) {
          if (is(q, ">")) depth++;
          else if (is(q, "<") && --depth === 0) break;
        }
        q--;
      }
      if (t[q]?.text === "function") add(nameBefore(q), q, body);
      else if (isName(q)) add(t[q]!.text, q, body);
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** A function of lib/ and its file (relative to lib/). */
export interface LocatedFunction extends FunctionSpan {
  readonly file: string;
}

/** Every function of every .ts file under `libDir` (paths relative to it), longest first. */
export async function readFunctionSpans(libDir: string): Promise<LocatedFunction[]> {
  const out: LocatedFunction[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`, `${rel}${entry.name}/`);
      else if (entry.isFile && entry.name.endsWith(".ts")) {
        const file = rel + entry.name;
        const source = await Deno.readTextFile(`${dir}/${entry.name}`);
        for (const span of functionSpans(source, `lib/${file}`)) out.push({ file, ...span });
      }
    }
  };
  await walk(libDir.replace(/\/$/, ""), "");
  return out.sort((a, b) => b.lines - a.lines);
}

/**
 * The size rule: one message per function over `limit` lines that
 * `allowed` (entries `file:name`) does not name, longest first, as
 * `lib/<file>:<line> <name> is <n> lines (limit <limit>): split it ...`.
 */
export function checkFunctionLengths(
  functions: readonly LocatedFunction[],
  limit: number = FUNCTION_LINE_LIMIT,
  allowed: readonly string[] = LONG_FUNCTIONS_ALLOWED,
): string[] {
  return functions
    .filter((f) => f.lines > limit && !allowed.includes(`${f.file}:${f.name}`))
    .sort((a, b) => b.lines - a.lines)
    .map((f) =>
      `lib/${f.file}:${f.line} ${f.name} is ${f.lines} lines (limit ${limit}): ` +
      `split it into phase functions or helpers of one concept each`
    );
}
