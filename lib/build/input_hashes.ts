/**
 * The content of a step's inputs, as sha256 per file, read once: a file
 * whose size, modification time, status-change time and inode are those
 * recorded in the build state is not read again (the stat cache). A
 * directory is every file under it; a gate directory also brings the files
 * of its bare run (gate.json's `bare_run_dir`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

/** What the stat cache knows of one file. */
export interface StatEntry {
  /** Bytes. */
  readonly size: number;
  /** Modification time, ms since the epoch (null where the system gives none). */
  readonly mtime_ms: number | null;
  /** Status-change time, ms since the epoch (null where the system gives none). */
  readonly ctime_ms: number | null;
  /** Inode (null where the system gives none). */
  readonly ino: number | null;
  /** sha256 of the bytes, lowercase hex. */
  readonly sha256: string;
}

/** Absolute path to what was last seen there. */
export type StatCache = Map<string, StatEntry>;

/**
 * The files an input stands for, absolute and sorted: the file itself, or
 * every file under a directory (symbolic links followed), and for a gate
 * directory those of its bare run too. A path that is gone gives none.
 *
 * @example A gate directory brings its bare run
 * ```ts
 * import { inputFiles } from "./input_hashes.ts";
 * import { deepEqual } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/gate`);
 * await Deno.mkdir(`${root}/bare`);
 * await Deno.writeTextFile(`${root}/gate/gate.json`, '{"bare_run_dir": "../bare"}');
 * await Deno.writeTextFile(`${root}/bare/traces.jsonl`, "{}\n");
 * deepEqual(await inputFiles(`${root}/gate`), [`${root}/bare/traces.jsonl`, `${root}/gate/gate.json`]);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function inputFiles(path: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return [];
  }
  if (!info.isDirectory) return [path];
  const files = await filesUnder(path);
  const bare = await bareRunOf(path);
  if (bare !== null) files.push(...await filesUnder(bare));
  return [...new Set(files)].sort();
}

/** The bare run a gate directory names, absolute, or null (not a gate, or no such directory). */
async function bareRunOf(dir: string): Promise<string | null> {
  try {
    const gate = JSON.parse(await Deno.readTextFile(join(dir, "gate.json")));
    if (typeof gate?.bare_run_dir !== "string") return null;
    const bare = resolve(dir, gate.bare_run_dir);
    return (await Deno.stat(bare)).isDirectory ? bare : null;
  } catch {
    return null;
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    let isDirectory = entry.isDirectory, isFile = entry.isFile;
    if (entry.isSymlink) {
      try {
        const target = await Deno.stat(path);
        [isDirectory, isFile] = [target.isDirectory, target.isFile];
      } catch {
        continue; // a dangling link reads as nothing
      }
    }
    if (isDirectory) out.push(...await filesUnder(path));
    else if (isFile) out.push(path);
  }
  return out;
}

/**
 * The sha256 of each file, from the stat cache when the file's size,
 * times and inode are unchanged, else read (in 1 MiB pieces) and recorded
 * in the cache.
 *
 * @param files Absolute file paths.
 * @param cache The stat cache; updated in place.
 * @returns Path to sha256 (lowercase hex); a file that cannot be read is left out.
 *
 * @example A second look reads nothing
 * ```ts
 * import { fileHashes, type StatCache } from "./input_hashes.ts";
 * import { equal } from "node:assert/strict";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "abc");
 * const cache: StatCache = new Map();
 * const sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
 * equal((await fileHashes([file], cache))[file], sha);
 * cache.set(file, { ...cache.get(file)!, sha256: "cached" });
 * equal((await fileHashes([file], cache))[file], "cached");
 * await Deno.remove(file);
 * ```
 */
export async function fileHashes(
  files: readonly string[],
  cache: StatCache,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of files) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(file);
    } catch {
      continue;
    }
    const seen = {
      size: info.size,
      mtime_ms: info.mtime?.getTime() ?? null,
      ctime_ms: info.ctime?.getTime() ?? null,
      ino: info.ino,
    };
    const known = cache.get(file);
    if (
      known !== undefined && known.size === seen.size && known.mtime_ms === seen.mtime_ms &&
      known.ctime_ms === seen.ctime_ms && known.ino === seen.ino && seen.mtime_ms !== null
    ) {
      out[file] = known.sha256;
      continue;
    }
    const sha256 = await hashFile(file);
    if (sha256 === null) continue;
    cache.set(file, { ...seen, sha256 });
    out[file] = sha256;
  }
  return out;
}

async function hashFile(path: string): Promise<string | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  try {
    const hash = createHash("sha256");
    const buffer = new Uint8Array(1 << 20);
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) break;
      hash.update(buffer.subarray(0, n));
    }
    return hash.digest("hex");
  } finally {
    file.close();
  }
}
