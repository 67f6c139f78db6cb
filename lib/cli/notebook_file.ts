/**
 * Notebooks as files: which project notebook a name means (the rule of
 * `deno task notebooks --notebook NAME`: the exact stem, else the one stem
 * it starts), and the parameters a notebook declares (`let NAME` at the
 * start of a line of its code cell tagged `parameters`).
 *
 * @module
 */
import { join } from "node:path";
import { PROJECT_ROOT } from "./kernelspec.ts";

/** The project's notebooks folder. */
export const NOTEBOOKS_DIR: string = join(PROJECT_ROOT, "notebooks");

/**
 * The project notebook a name means, or null for none or several.
 *
 * @param name A stem (`01_gate_reanalysis`), a file name or a unique prefix (`01`).
 * @param available The notebooks' file names (default: the project's).
 * @returns The file name.
 *
 * @example
 * ```ts
 * import { projectNotebook } from "./notebook_file.ts";
 * import { equal } from "node:assert/strict";
 * const names = ["01_gate_reanalysis.ipynb", "02_heldout_and_power.ipynb"];
 * equal(projectNotebook("01", names), "01_gate_reanalysis.ipynb");
 * equal(projectNotebook("02_heldout_and_power.ipynb", names), "02_heldout_and_power.ipynb");
 * equal(projectNotebook("0", names), null);
 * ```
 */
export function projectNotebook(name: string, available?: readonly string[]): string | null {
  const names = available ?? [...Deno.readDirSync(NOTEBOOKS_DIR)]
    .filter((e) => e.isFile && e.name.endsWith(".ipynb")).map((e) => e.name).sort();
  const stem = name.replace(/\.ipynb$/, "");
  const exact = names.filter((n) => n === `${stem}.ipynb`);
  const matches = exact.length > 0 ? exact : names.filter((n) => n.startsWith(stem));
  return matches.length === 1 ? matches[0]! : null;
}

/** A notebook's cells as far as they are read here. */
interface NotebookCells {
  readonly cells?: readonly {
    readonly cell_type?: string;
    readonly metadata?: { readonly tags?: readonly string[] };
    readonly source?: string | readonly string[];
  }[];
}

/**
 * The parameters a notebook declares: `let NAME` at the start of a line of
 * its code cell tagged `parameters` (none without such a cell).
 *
 * @param notebook The notebook's JSON, parsed.
 * @returns The names, in order.
 *
 * @example
 * ```ts
 * import { declaredParameters } from "./notebook_file.ts";
 * import { deepEqual } from "node:assert/strict";
 * const cell = { cell_type: "code", metadata: { tags: ["parameters"] }, source: ["let A = 1;\n", "let OUT_DIR = \"x\";"] };
 * deepEqual(declaredParameters({ cells: [cell] }), ["A", "OUT_DIR"]);
 * deepEqual(declaredParameters({ cells: [] }), []);
 * ```
 */
export function declaredParameters(notebook: NotebookCells): string[] {
  const cell = (notebook.cells ?? []).find((c) =>
    c.cell_type === "code" && (c.metadata?.tags ?? []).includes("parameters")
  );
  if (cell === undefined) return [];
  const source = typeof cell.source === "string" ? cell.source : (cell.source ?? []).join("");
  return [...source.matchAll(/^[ \t]*let[ \t]+([A-Za-z_$][\w$]*)\b/gm)].map((m) => m[1]!);
}
