/**
 * `gate notebook new <name> [--from <notebook>]`: a notebook of the user's
 * own, in their folder, from one of the project's notebooks
 * ({@linkcode portableNotebook}). Never replaces a file: an existing
 * `<name>.ipynb` is refused (exit 2), and the new file appears whole or
 * not at all (written beside it, then linked into place, which fails if
 * the name was taken meanwhile).
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { printLine } from "../core/terminal_text.ts";
import { parseCommand } from "./args.ts";
import type { CommandContext } from "./option_decl.ts";
import { NOTEBOOK_NEW } from "./commands.ts";
import { NOTEBOOKS_DIR, projectNotebook } from "./notebook_file.ts";
import { PROJECT_ROOT } from "./kernelspec.ts";

/** Where the new notebook's figures and run cache go, beside it: `<name>_figures`, `.gatelab-cache`. */
const LOCAL_DIRS: Readonly<Record<string, (name: string) => string>> = {
  OUT_DIR: (name) => `${name}_figures`,
  CACHE_DIR: () => ".gatelab-cache",
};

/** A notebook's JSON as far as it is rewritten here. */
interface Notebook {
  cells: {
    cell_type: string;
    metadata?: { tags?: string[]; gatelab?: { paths?: string[] } };
    source: string | string[];
    outputs?: unknown[];
    execution_count?: number | null;
  }[];
  [key: string]: unknown;
}

/**
 * A project notebook made to work from any folder: its import of
 * `../lib/mod.ts` names the library by its absolute file URL; in its
 * parameters cell, the relative path parameters (those the cell's
 * `metadata.gatelab.paths` lists) become absolute (the demo's data, so it
 * runs as it is), except `OUT_DIR` and `CACHE_DIR`, which stay beside the
 * new notebook; `PROJECT`, where declared, names `gatelab.yaml` when the
 * folder has one. Outputs are cleared.
 *
 * @param notebook The project notebook's JSON.
 * @param options `lib`: the library's `mod.ts` URL; `from`: the folder the
 *   notebook's relative paths are relative to; `name`: the new notebook's
 *   stem; `project`: whether the new folder holds a `gatelab.yaml`.
 * @returns The new notebook's JSON.
 *
 * @example
 * ```ts
 * import { portableNotebook } from "./notebook_new.ts";
 * import { deepEqual } from "node:assert/strict";
 * const nb = { cells: [
 *   { cell_type: "code", metadata: { tags: ["parameters"], gatelab: { paths: ["GATES", "OUT_DIR"] } },
 *     source: ['let GATES: string[] = ["../data/g"]; // a gate\n', 'let OUT_DIR = "../reports/x";'] },
 *   { cell_type: "code", metadata: {}, source: ['import * as gl from "../lib/mod.ts";'], outputs: [1] },
 * ] };
 * const out = portableNotebook(nb, { lib: "file:///g/lib/mod.ts", from: "/g/notebooks", name: "mine", project: false });
 * deepEqual(out.cells.map((c) => c.source), [
 *   'let GATES: string[] = ["/g/data/g"]; // a gate\nlet OUT_DIR = "mine_figures";',
 *   `import * as gl from ${JSON.stringify("file:///g/lib/mod.ts")};`,
 * ]);
 * deepEqual(out.cells[1]!.outputs, []);
 * ```
 */
export function portableNotebook(
  notebook: Notebook,
  options: {
    readonly lib: string;
    readonly from: string;
    readonly name: string;
    readonly project: boolean;
  },
): Notebook {
  const cells = notebook.cells.map((cell) => {
    let source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    if (cell.cell_type !== "code") return { ...cell, source };
    source = source.replaceAll('"../lib/mod.ts"', JSON.stringify(options.lib));
    if (cell.metadata?.tags?.includes("parameters")) {
      const paths = new Set(cell.metadata.gatelab?.paths ?? []);
      source = source.replace(/^([ \t]*let[ \t]+([A-Za-z_$][\w$]*)\b[^=\n]*=)(.*)$/gm, (
        line,
        head: string,
        name: string,
        rest: string,
      ) => {
        const local = LOCAL_DIRS[name];
        if (local !== undefined && paths.has(name)) {
          return `${head}${rest.replace(/"[^"]*"/, JSON.stringify(local(options.name)))}`;
        }
        if (name === "PROJECT" && options.project) {
          return `${head}${rest.replace(/^\s*null\b/, ' "gatelab.yaml"')}`;
        }
        if (!paths.has(name)) return line;
        return `${head}${
          rest.replace(/"(\.\.?\/[^"]*)"/g, (_, p: string) =>
            JSON.stringify(resolve(options.from, p)))
        }`;
      });
    }
    return { ...cell, source, outputs: [], execution_count: null };
  });
  return { ...notebook, cells };
}

/**
 * Runs `gate notebook new`.
 *
 * @param args The arguments after `notebook new`.
 * @param context How gatelab was started.
 * @returns 0, or 2 on a refusal.
 */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, NOTEBOOK_NEW, context);
  if (cli === null) return 0;
  const { values } = cli;
  const given = cli.positionals[0]!;
  const path = resolve(given.endsWith(".ipynb") ? given : `${given}.ipynb`);
  const name = basename(path, ".ipynb");
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name)) {
    throw cli.usageError(
      `notebook name "${name}": use letters, digits, _, . and - (it names the file and its figures folder)`,
    );
  }
  const from = projectNotebook(values.from);
  if (from === null) {
    const known = [...Deno.readDirSync(NOTEBOOKS_DIR)].map((e) => e.name)
      .filter((n) => n.endsWith(".ipynb")).map((n) => n.slice(0, -6)).sort();
    throw cli.usageError(`--from ${values.from}: no such notebook (known: ${known.join(", ")})`);
  }
  const folder = dirname(path);
  if (!isDirectory(folder)) {
    throw cli.usageError(`${dirname(given) || "."}: no such folder`);
  }
  if (exists(path)) {
    throw cli.usageError(
      `${given.endsWith(".ipynb") ? given : `${given}.ipynb`} exists; gatelab never replaces ` +
        "a file: choose another name, or move that one away",
    );
  }
  const notebook = portableNotebook(
    JSON.parse(Deno.readTextFileSync(join(NOTEBOOKS_DIR, from))),
    {
      lib: pathToFileURL(join(PROJECT_ROOT, "lib", "mod.ts")).href,
      from: NOTEBOOKS_DIR,
      name,
      project: exists(join(folder, "gatelab.yaml")),
    },
  );
  const temp = join(folder, `.${name}.ipynb.tmp-${Deno.pid}`);
  try {
    await Deno.writeTextFile(temp, JSON.stringify(notebook, null, 1) + "\n");
    await Deno.link(temp, path);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw cli.usageError(`${basename(path)} appeared meanwhile; it is left as it is`);
    }
    throw error;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  if (!values.quiet) {
    const config = join(PROJECT_ROOT, "deno.json");
    printLine(
      `ok: wrote ${basename(path)} (from ${from}); run it here with\n` +
        `  deno task --config ${config} notebooks ${basename(path)}\n` +
        `or open it in JupyterLab (kernel "Deno (gatelab)": deno task --config ${config} lab)`,
    );
  }
  return 0;
}

/** Whether `path` is a directory (a link to one included). */
function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Whether anything is at `path`. */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
