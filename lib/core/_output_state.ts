/**
 * What is at an output path, and whether gatelab may replace it (private to
 * lib/core/atomic_write.ts).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { fsProblem, PathError } from "./path_error.ts";
import { exists } from "./_output_swap.ts";

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
  try {
    const marker = JSON.parse(await Deno.readTextFile(join(path, OUTPUT_MARKER)));
    return marker?.ok === false ? "failed" : "good";
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) && !(error instanceof SyntaxError)) {
      throw new PathError(given, fsProblem(error));
    }
  }
  const entries = [...Deno.readDirSync(path)];
  if (entries.length === 0) return "empty";
  const legacy = await legacyState(path, entries);
  if (legacy !== null) return legacy;
  throw new PathError(
    given,
    "holds files gatelab did not write; the output directory is replaced whole, so give a new or empty directory",
  );
}

/**
 * A directory written by gatelab before the marker existed: a top-level
 * JSON file with `generator.tool` "gatelab". Failed when its only such
 * file is a validation.json with `ok: false`.
 */
async function legacyState(path: string, entries: Deno.DirEntry[]): Promise<DirState | null> {
  const ours: { name: string; ok: unknown }[] = [];
  for (const e of entries) {
    if (!e.isFile || !e.name.endsWith(".json")) continue;
    try {
      const doc = JSON.parse(await Deno.readTextFile(join(path, e.name)));
      if (doc?.generator?.tool === "gatelab") ours.push({ name: e.name, ok: doc.ok });
    } catch { /* not ours */ }
  }
  if (ours.length === 0) return null;
  return ours.length === 1 && ours[0]!.name === "validation.json" && ours[0]!.ok === false
    ? "failed"
    : "good";
}

/** Removes `dir` if it is a gatelab output (a stale `<out>.failed`). */
export async function removeOwned(dir: string): Promise<void> {
  if (await exists(join(dir, OUTPUT_MARKER))) await Deno.remove(dir, { recursive: true });
}
