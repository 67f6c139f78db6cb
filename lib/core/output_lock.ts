/**
 * An exclusive lock on a path that gatelab is about to replace (an output
 * directory, a ledger file): the lock file `.<name>.gatelab-lock` next to
 * it, holding the owner's pid.
 *
 * The rule:
 *
 * - The lock file is made complete under a temporary name (created with
 *   `createNew`, then the pid written, then an OS advisory lock `flock`
 *   taken on it) and linked into place with `Deno.link`, which fails if
 *   the lock file exists. So at most one process holds it, and a lock file
 *   is never seen half-written.
 * - The owner removes it when done (also on errors: `try/finally`).
 * - A lock file whose owner died (kill -9, power off of the process) is
 *   stale. It is recognised by the operating system itself: a process's
 *   advisory locks are released when it exits, however it exits, so a
 *   lock file whose `flock` can be taken has no live owner. This needs
 *   neither `--allow-run` nor `/proc` (Deno lets a process read
 *   `/proc/<pid>` only with `--allow-all`, which the CLI does not have),
 *   works on Linux and macOS, and is not fooled by a pid reused by an
 *   unrelated process. The pid in the file only names the owner in messages.
 * - A live owner is waited for (polling every 100 ms); `onWait` is told
 *   once, with the owner's pid, so the CLI can say why it pauses.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** A held lock; `release()` removes the lock file. */
export interface HeldLock {
  /** The lock file. */
  readonly path: string;
  /** Removes the lock file and drops the advisory lock. Safe to call twice. */
  release(): Promise<void>;
}

/** Options of {@linkcode acquireLock}. */
export interface LockOptions {
  /** Called once when the lock is held by a live process, with its pid (null if unreadable). */
  readonly onWait?: (owner: number | null, lockFile: string) => void;
  /** Called when a stale lock (owner gone) was removed, with the dead owner's pid. */
  readonly onStale?: (owner: number | null, lockFile: string) => void;
}

/** The lock file of `target`: `.<name>.gatelab-lock` in the same directory. */
export function lockFileOf(target: string): string {
  return join(dirname(target), `.${basename(target)}.gatelab-lock`);
}

/**
 * Takes the exclusive lock on `target` (a file or directory path that need
 * not exist; its parent must). Waits while another live process holds it;
 * removes a stale lock first.
 *
 * @param target The path to protect.
 * @param options Callbacks for waiting and stale locks.
 * @returns The held lock; call `release()` in a `finally`.
 *
 * @example Two holders cannot coexist; a released lock can be taken again
 * ```ts
 * import { acquireLock, lockFileOf } from "./output_lock.ts";
 * import { equal, ok } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const lock = await acquireLock(`${dir}/out`);
 * ok((await Deno.stat(lockFileOf(`${dir}/out`))).isFile);
 * let second = false;
 * const waiting = acquireLock(`${dir}/out`).then((l) => { second = true; return l; });
 * await new Promise((r) => setTimeout(r, 250));
 * equal(second, false); // still waiting for the first holder
 * await lock.release();
 * await (await waiting).release();
 * equal(second, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function acquireLock(target: string, options: LockOptions = {}): Promise<HeldLock> {
  const path = lockFileOf(target);
  let told = false;
  for (;;) {
    const held = await tryCreate(path);
    if (held !== null) return held;
    const owner = await inspect(path);
    if (owner === "gone") continue;
    if (owner.stale) {
      options.onStale?.(owner.pid, path);
      continue;
    }
    if (!told) {
      told = true;
      options.onWait?.(owner.pid, path);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates the lock file complete under a temporary name, then links it into place. */
async function tryCreate(path: string): Promise<HeldLock | null> {
  const temp = `${path}-new-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const file = await Deno.open(temp, { createNew: true, write: true, read: true });
  try {
    await file.lock(true);
    await file.write(new TextEncoder().encode(`${JSON.stringify({ pid: Deno.pid })}\n`));
    try {
      await Deno.link(temp, path);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists || error instanceof Deno.errors.NotFound) {
        file.close();
        await Deno.remove(temp).catch(() => {});
        return null;
      }
      throw error;
    }
    await Deno.remove(temp).catch(() => {});
  } catch (error) {
    try {
      file.close();
    } catch { /* already closed */ }
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      // Remove while still holding the advisory lock, so no one can take
      // this file for stale in between.
      await Deno.remove(path).catch(() => {});
      file.close();
    },
  };
}

/**
 * Looks at an existing lock file: "gone" when it vanished, else its pid and
 * whether it is stale. A stale file is removed here, under its advisory
 * lock and only if the path still names the same file.
 */
async function inspect(path: string): Promise<"gone" | { pid: number | null; stale: boolean }> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "gone";
    throw error;
  }
  try {
    const pid = await readPid(file);
    if (!(await file.tryLock(true))) return { pid, stale: false };
    // No live process holds it. Remove it only if `path` is still this file
    // (the owner, or another process clearing it, may have replaced it).
    let same = false;
    try {
      same = (await Deno.stat(path)).ino === (await file.stat()).ino;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (!same) return "gone";
    await Deno.remove(path);
    return { pid, stale: true };
  } finally {
    file.close();
  }
}

async function readPid(file: Deno.FsFile): Promise<number | null> {
  const buffer = new Uint8Array(256);
  const n = await file.read(buffer);
  if (n === null) return null;
  try {
    const pid = JSON.parse(new TextDecoder().decode(buffer.subarray(0, n)))?.pid;
    return Number.isSafeInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}
