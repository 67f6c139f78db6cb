import { join } from "node:path";

/**
 * Gate directories with an import's output directory replaced by its gates:
 * a directory that holds `import.json` (written by `gate import`) and no
 * `gate.json` stands for every gate `import.json` lists, in its order
 * (paths relative to the directory). Anything else is kept as given, so a
 * wrong path still fails where it always did. This is what lets
 * `validate`, `analyze`, `heldout`, `sequential`, `sql` and the notebooks' `GATES`
 * take an import's `--out` (its gates are then pooled rounds, which need
 * one bare run: one checkpoint and split).
 *
 * @param dirs Gate directories as given.
 * @returns The gate directories.
 *
 * @example
 * ```ts
 * import { expandImportDirs } from "./import_dirs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const out = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${out}/import.json`, JSON.stringify({ format: "gatelab.import/v1", gates: [{ dir: "c/gate-1" }, { dir: "c/gate-2" }] }));
 * deepEqual(await expandImportDirs([out, "data/demo/ckpt-a/gate-a"]), [`${out}/c/gate-1`, `${out}/c/gate-2`, "data/demo/ckpt-a/gate-a"]);
 * await Deno.remove(out, { recursive: true });
 * ```
 */
export async function expandImportDirs(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const gates = await importGates(dir);
    if (gates === null) out.push(dir);
    else for (const g of gates) out.push(join(dir, g));
  }
  return out;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function importGates(dir: string): Promise<string[] | null> {
  if (await isFile(join(dir, "gate.json"))) return null;
  if (!(await isFile(join(dir, "import.json")))) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(await Deno.readTextFile(join(dir, "import.json")));
  } catch {
    return null; // not ours to judge here: the gate read reports the directory
  }
  const d = doc as { format?: unknown; gates?: unknown };
  if (d.format !== "gatelab.import/v1" || !Array.isArray(d.gates)) return null;
  const gates = d.gates.map((g) => (g as { dir?: unknown }).dir);
  return gates.every((g): g is string => typeof g === "string" && g !== "") && gates.length > 0
    ? gates
    : null;
}
