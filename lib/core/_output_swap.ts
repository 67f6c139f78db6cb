/**
 * The swap of an output directory, as a journal beside it records it, and
 * the recovery after a killed run (private to lib/core/atomic_write.ts).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { printError } from "./terminal_text.ts";

/**
 * Finishes or undoes a swap that a killed run left at `target`, and
 * deletes its temporaries. Called by `writeFilesAtomic` under the
 * lock; exported for tests and for a caller that holds the lock.
 *
 * After it, `target` is the complete earlier directory (when the kill came
 * before the commit rename) or the complete new one (after it), the files
 * alongside match, and no `.<name>.gatelab-*` temporary remains.
 */
export async function recover(
  target: string,
  onLeftover: (path: string, why: string) => void = reportLeftover,
): Promise<void> {
  const parent = dirname(target), name = basename(target);
  const journal = await readJournal(target);
  if (journal !== null) {
    if (journal.phase === "commit" && !(await exists(journal.staged))) {
      // Committed: complete the files alongside, then drop the earlier directory.
      for (const a of journal.alongside) {
        if (await exists(a.temp)) await Deno.rename(a.temp, a.target);
      }
    } else {
      // Not committed: bring the earlier directory back if it was moved away.
      if (!(await exists(journal.dest)) && (await exists(journal.old))) {
        await Deno.rename(journal.old, journal.dest);
      }
      for (const a of journal.alongside) await Deno.remove(a.temp).catch(() => {});
    }
    await Deno.remove(journal.staged, { recursive: true }).catch(() => {});
    await removeOld(journal.old, onLeftover);
    await Deno.remove(journalOf(target)).catch(() => {});
  }
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(parent)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  const lock = `.${name}.gatelab-lock`;
  for (const e of entries) {
    if (!e.name.startsWith(`.${name}.gatelab-`) || e.name === lock) continue;
    const path = join(parent, e.name);
    const oldOf = e.name.match(/^\.(.*)\.gatelab-old-[0-9]+-[0-9a-f]{8}$/);
    // An earlier directory with no journal: the journal is removed only after
    // the commit, so it is stale unless its destination is missing.
    if (oldOf && !(await exists(join(parent, oldOf[1]!)))) {
      await Deno.rename(path, join(parent, oldOf[1]!));
      continue;
    }
    if (oldOf) await removeOld(path, onLeftover);
    else await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

/**
 * Removes an earlier output directory moved aside by a swap; when it cannot
 * be removed (its parent is not writable, a mount inside it), says so
 * through `onLeftover` and leaves it for the next run, which tries again.
 */
export async function removeOld(
  path: string,
  onLeftover: (path: string, why: string) => void,
): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (first) {
    if (first instanceof Deno.errors.NotFound) return;
    // An --out that was itself read-only (mode 555) moves aside as it is, and its entries cannot
    // be unlinked: gatelab's own old directory is made writable (directories only, owner
    // write added), then removed again; only what still fails is reported.
    let error: unknown = first;
    if (first instanceof Deno.errors.PermissionDenied) {
      try {
        await makeWritable(path);
        await Deno.remove(path, { recursive: true });
        return;
      } catch (again) {
        if (again instanceof Deno.errors.NotFound) return;
        error = again;
      }
    }
    const why = error instanceof Error
      ? error.message.match(/^(.*?) \(os error \d+\)/)?.[1] ?? error.message
      : String(error);
    onLeftover(path, why);
  }
}

/**
 * Adds owner write and search to a directory gatelab moved aside and to
 * every directory under it (never following a symbolic link), so its
 * entries can be removed.
 */
async function makeWritable(dir: string): Promise<void> {
  const info = await Deno.lstat(dir);
  if (!info.isDirectory) return;
  await Deno.chmod(dir, ((info.mode ?? 0o700) & 0o7777) | 0o700);
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) await makeWritable(join(dir, e.name));
  }
}

/** The default of `onLeftover`: one line on stderr. */
export function reportLeftover(path: string, why: string): void {
  printError(
    `warning: the earlier result moved aside to ${path} cannot be removed (${why}); ` +
      "the next run into the same --out removes it, or remove it yourself",
  );
}

/** What a write is doing, written before it starts and before it commits. */
export interface Journal {
  readonly phase: "staging" | "commit";
  readonly dest: string;
  readonly staged: string;
  readonly old: string;
  readonly alongside: readonly { readonly temp: string; readonly target: string }[];
}

export function journalOf(target: string): string {
  return join(dirname(target), `.${basename(target)}.gatelab-journal`);
}

export async function writeJournal(target: string, journal: Journal): Promise<void> {
  const path = journalOf(target);
  const temp = `${path}-new-${Deno.pid}`;
  await Deno.writeTextFile(temp, JSON.stringify(journal));
  await Deno.rename(temp, path);
}

async function readJournal(target: string): Promise<Journal | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(journalOf(target));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    return JSON.parse(text) as Journal;
  } catch {
    return null; // a journal is written complete, then renamed; an unreadable one is not ours
  }
}

/** Deletes a killed run's temporaries beside a file we hold the lock of. */
export async function removeStaleTemps(path: string): Promise<void> {
  const prefixes = [`.${basename(path)}.gatelab-new-`, `.${basename(path)}.gatelab-lock-new-`];
  for (const e of Deno.readDirSync(dirname(path))) {
    if (prefixes.some((p) => e.name.startsWith(p))) {
      await Deno.remove(join(dirname(path), e.name)).catch(() => {});
    }
  }
}

/** Whether anything (even a broken link) is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
