/**
 * What is at an output path, and whether gatelab may replace it (private to
 * lib/core/atomic_write.ts).
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fsProblem, PathError } from "./path_error.ts";
import { exists } from "./_output_swap.ts";

/** Why a mount point cannot be an output directory. */
export const MOUNT_POINT =
  "is a mount point (or in use), and gatelab replaces an output directory whole by renaming it, " +
  "which a mount point cannot be; choose a directory inside the mount";

/** The hidden file that marks a directory as a gatelab output (docs/FORMAT.md, Extensions). */
export const OUTPUT_MARKER = ".gatelab-output.json";

/**
 * Throws the {@linkcode PathError} `writeFilesAtomic` would throw
 * for `dir` now (a file, a symbolic link, a directory gatelab did not
 * write), so a command can refuse before its work instead of after it.
 *
 * @example
 * ```ts
 * import { checkReplaceable } from "./atomic_write.ts";
 * import { rejects } from "node:assert/strict";
 * const file = await Deno.makeTempFile();
 * await rejects(checkReplaceable(file), /is a file; expected a directory/);
 * await Deno.remove(file);
 * ```
 */
export async function checkReplaceable(dir: string): Promise<void> {
  await dirState(dir, resolve(dir));
}

/** Nothing, an empty directory, or a gatelab output (successful or a failure report). */
export type DirState = "missing" | "empty" | "good" | "failed";

/**
 * What is at an output path now: nothing, an empty directory, or a gatelab
 * output (successful or a failure report). Anything else is refused.
 *
 * A directory is gatelab's only when nothing in it is foreign: with the
 * marker, every entry is the marker, a file the marker lists, or a
 * directory on the way to one; without it (a directory from before the
 * marker), every entry is a top-level JSON file whose `generator.tool` is
 * "gatelab". The first foreign entry (in code-point order, depth first) is
 * named in the refusal, so a user's file is never deleted.
 */
export async function dirState(given: string, path: string): Promise<DirState> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    throw new PathError(given, fsProblem(error));
  }
  if (info.isSymlink) {
    throw new PathError(
      given,
      "is a symbolic link; give the directory it points to (the output directory is replaced whole)",
    );
  }
  if (!info.isDirectory) {
    throw new PathError(given, "is a file; expected a directory for the outputs (or a new path)");
  }
  const parentDev = await parentDevice(path);
  if (parentDev !== null && info.dev !== null && parentDev !== info.dev) {
    throw new PathError(given, MOUNT_POINT); // another file system mounted here
  }
  let entries: Entry[];
  try {
    entries = walk(path);
  } catch (error) {
    throw new PathError(given, fsProblem(error));
  }
  if (entries.length === 0) return "empty";
  const marker = await readMarker(given, path);
  let state: DirState;
  let foreign: string | undefined;
  if (marker !== null) {
    const owned = new Set([OUTPUT_MARKER, ...marker.files]);
    const dirs = new Set(marker.files.flatMap(ancestors));
    foreign = entries.find((e) =>
      e.isDirectory ? !dirs.has(e.name) && isEmptyDir(e.name, entries) : !(
        e.isFile && owned.has(e.name)
      )
    )?.name;
    state = marker.ok === false ? "failed" : "good";
  } else {
    const ours: { name: string; ok: unknown }[] = [];
    for (const e of entries) {
      if (e.isDirectory && !isEmptyDir(e.name, entries)) continue; // its files are named
      const doc = e.isFile && !e.name.includes("/") && e.name.endsWith(".json")
        ? await gatelabJson(join(path, e.name))
        : null;
      if (doc === null) {
        foreign = e.name;
        break;
      }
      ours.push({ name: e.name, ok: doc.ok });
    }
    state = ours.length === 1 && ours[0]!.name === "validation.json" && ours[0]!.ok === false
      ? "failed"
      : "good";
  }
  if (foreign !== undefined) {
    const first = join(given, foreign);
    throw new PathError(
      given,
      `holds files gatelab did not write; ${first} is the first, and the output directory is ` +
        "replaced whole, so move them away or give a new or empty directory",
    );
  }
  return state;
}

/** The device of `path`'s parent, or null when it cannot be told. */
async function parentDevice(path: string): Promise<number | null> {
  try {
    return (await Deno.stat(dirname(path))).dev;
  } catch {
    return null;
  }
}

/** One entry under an output directory: its `/`-separated path relative to it. */
interface Entry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}

/**
 * Every entry under `dir`, depth first in code-point order; a directory
 * comes before what it holds, and symbolic links are not followed.
 */
function walk(dir: string, prefix = ""): Entry[] {
  const names = [...Deno.readDirSync(dir)].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const out: Entry[] = [];
  for (const e of names) {
    const name = prefix + e.name;
    out.push({ name, isFile: e.isFile, isDirectory: e.isDirectory });
    if (e.isDirectory) out.push(...walk(join(dir, e.name), `${name}/`));
  }
  return out;
}

/** `a/b/c.svg` -> `a`, `a/b`. */
function ancestors(file: string): string[] {
  const parts = file.split("/");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * Whether directory `dir` holds nothing (then it is named itself when
 * foreign; otherwise the first foreign entry inside it is).
 */
function isEmptyDir(dir: string, entries: readonly Entry[]): boolean {
  return !entries.some((e) => e.name.startsWith(`${dir}/`));
}

/** The marker's verdict and file list, or null when there is no readable marker of ours. */
async function readMarker(
  given: string,
  path: string,
): Promise<{ ok: unknown; files: string[] } | null> {
  let marker: unknown;
  try {
    marker = JSON.parse(await Deno.readTextFile(join(path, OUTPUT_MARKER)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return null;
    if (error instanceof Deno.errors.IsADirectory) return null;
    throw new PathError(given, fsProblem(error));
  }
  if (typeof marker !== "object" || marker === null) return null;
  const { format, ok, files } = marker as Record<string, unknown>;
  if (format !== "gatelab.output/v1" || !Array.isArray(files)) return null;
  if (!files.every((f): f is string => typeof f === "string")) return null;
  return { ok, files };
}

/** A JSON document gatelab wrote (`generator.tool` "gatelab"), or null. */
async function gatelabJson(file: string): Promise<{ ok: unknown } | null> {
  try {
    const doc = JSON.parse(await Deno.readTextFile(file));
    return doc?.generator?.tool === "gatelab" ? { ok: doc.ok } : null;
  } catch {
    return null; // unreadable or not JSON: not ours
  }
}

/**
 * Removes `dir` if it is a gatelab output with nothing foreign in it (a
 * stale `<out>.failed`); leaves it alone otherwise.
 */
export async function removeOwned(dir: string): Promise<void> {
  if (!(await exists(join(dir, OUTPUT_MARKER)))) return;
  try {
    await dirState(dir, dir);
  } catch (error) {
    if (error instanceof PathError) return; // the user's files are in it: keep them
    throw error;
  }
  await Deno.remove(dir, { recursive: true });
}
