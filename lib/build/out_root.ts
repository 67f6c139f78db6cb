/**
 * The output root of a study (`out:`): a directory that holds the
 * build's output directories, one per import, step and study-wide
 * output, each replaced whole by the output swap, beside the build's state
 * and lock. It is refused, as every `--out` is, when it holds anything
 * gatelab did not write.
 *
 * @module
 */
import { join } from "node:path";
import { checkReplaceable, OUTPUT_MARKER } from "../core/atomic_write.ts";
import { fsProblem, PathError } from "../core/path_error.ts";

/** Hidden names gatelab writes beside an output directory or for the build. */
const OURS = /^\.(.*\.)?gatelab-/;

/**
 * Throws a {@linkcode PathError} when `out` is a file or a symbolic link,
 * or holds an entry gatelab did not write: a file that is not one of
 * gatelab's hidden names (the build state, a lock, a journal, a swap's
 * temporary), or a directory that is not a gatelab output. A missing root
 * is fine. Reads only the root's listing and the markers, so a large study
 * is checked in milliseconds.
 *
 * @param out The output root, absolute.
 * @param given The root as the user gave it, for the message.
 *
 * @example
 * ```ts
 * import { checkOutRoot } from "./out_root.ts";
 * import { rejects } from "node:assert/strict";
 * const out = await Deno.makeTempDir();
 * await Deno.mkdir(`${out}/gate-a`);
 * await Deno.writeTextFile(`${out}/gate-a/.gatelab-output.json`, "{}");
 * await Deno.writeTextFile(`${out}/.gatelab-build.json`, "{}");
 * await checkOutRoot(out, "out");
 * await Deno.writeTextFile(`${out}/notes.txt`, "mine");
 * await rejects(checkOutRoot(out, "out"), /out holds files gatelab did not write; out\/notes.txt is the first/);
 * await Deno.remove(out, { recursive: true });
 * ```
 */
export async function checkOutRoot(out: string, given: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(out);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new PathError(given, fsProblem(error));
  }
  if (info.isSymlink) {
    throw new PathError(given, "is a symbolic link; give the directory it points to");
  }
  if (!info.isDirectory) {
    throw new PathError(given, "is a file; expected a directory for the study's outputs");
  }
  const names = [...Deno.readDirSync(out)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const entry of names) {
    if (OURS.test(entry.name)) continue;
    if (entry.isDirectory && await isOutput(join(out, entry.name))) continue;
    throw new PathError(
      given,
      `holds files gatelab did not write; ${join(given, entry.name)} is the first, and a ` +
        "build replaces what it writes there, so move them away or give a new or empty directory",
    );
  }
}

/** A gatelab output directory (its marker, or an earlier version's files), or an empty one. */
async function isOutput(dir: string): Promise<boolean> {
  try {
    if ((await Deno.stat(join(dir, OUTPUT_MARKER))).isFile) return true;
  } catch { /* no marker: the older form, or not ours */ }
  try {
    await checkReplaceable(dir);
    return true;
  } catch (error) {
    if (error instanceof PathError) return false;
    throw error;
  }
}
