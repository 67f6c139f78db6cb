/**
 * The house rules of lib/ as a pure function over its import graph, and the
 * reader that builds that graph from `deno info --json`. docs/architecture.md
 * describes the floors; tests/architecture_test.ts runs the check on the
 * real graph and on synthetic graphs that break each rule. The bundle rule
 * is checked on lib/report/bundles.ts's `BUNDLES` (each stage's bundle
 * object) and on the report's imports.
 *
 * @module
 */
import type { AnyBundle } from "../lib/table/bundle.ts";

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
