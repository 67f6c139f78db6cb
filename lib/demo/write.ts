/**
 * Writing the demo data: every generated file in one atomic step, and
 * removal of files under the directory that the generator no longer makes.
 *
 * @module
 */
import { join, relative } from "node:path";
import { writeFilesInPlace } from "../core/atomic_write.ts";
import { generateDemo } from "./generate.ts";

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return out;
    throw error;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await listFiles(path, root));
    else out.push(relative(root, path));
  }
  return out.sort();
}

/**
 * Regenerates the demo data into `dir`: writes every file of
 * {@linkcode generateDemo} atomically, then removes any other file under
 * `dir` (a stale file from an older generator would otherwise linger).
 *
 * @param dir Target directory, e.g. `data/demo`.
 * @returns The relative paths written and those removed.
 *
 * @example
 * ```ts
 * import { writeDemo } from "./write.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/stale.txt`, "old\n");
 * const { removed } = await writeDemo(dir);
 * deepEqual(removed, ["stale.txt"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDemo(dir: string): Promise<{ written: string[]; removed: string[] }> {
  const files = generateDemo();
  await writeFilesInPlace(dir, files);
  const removed: string[] = [];
  for (const path of await listFiles(dir)) {
    if (!(path in files)) {
      await Deno.remove(join(dir, path));
      removed.push(path);
    }
  }
  return { written: Object.keys(files), removed };
}

/** Lists the files under `dir` as sorted relative paths (empty when `dir` is missing). */
export function listDemoFiles(dir: string): Promise<string[]> {
  return listFiles(dir);
}
