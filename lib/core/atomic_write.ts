/**
 * How gatelab writes outputs. Every command's outputs form one directory
 * that is replaced whole: {@linkcode writeFilesAtomic} builds the new
 * directory beside the old one and swaps it in, under an exclusive lock,
 * so the directory holds either the earlier result or the new one, never a
 * mix, even if the process is killed (kill -9) at any moment.
 *
 * Names used next to an output directory `<parent>/<name>` (all removed by
 * the time a command returns; a killed run's leftovers are cleaned by the
 * next write to the same directory):
 *
 * | name                               | what                                            |
 * | ---------------------------------- | ----------------------------------------------- |
 * | `.<name>.gatelab-lock`             | the exclusive lock (lib/core/output_lock.ts)    |
 * | `.<name>.gatelab-journal`          | what is being swapped, for recovery             |
 * | `.<name>.gatelab-new-<id>/`        | the new directory being built                   |
 * | `.<name>.gatelab-old-<id>/`        | the earlier directory during the swap           |
 * | `<name>.failed/`                   | a failed run's `validation.json`, when `<name>` holds an earlier successful result |
 *
 * @module
 */
import {
  basename,
  dirname,
  isAbsolute,
  join,
  normalize,
  resolve,
  sep as SEPARATOR,
} from "node:path";
import { diskFull, fsProblem, isBusy, isDiskFull, PathError } from "./path_error.ts";
import { acquireLock, type HeldLock, lockFileOf } from "./output_lock.ts";
import {
  type Journal,
  journalOf,
  recover,
  removeOld,
  removeStaleTemps,
  reportLeftover,
  writeJournal,
} from "./_output_swap.ts";
import { dirState, MOUNT_POINT, OUTPUT_MARKER, removeOwned } from "./_output_state.ts";
import { writeTextPieces } from "./text_pieces.ts";
import { catchSignals, holdTemporary } from "./interrupt.ts";
import { printError } from "./terminal_text.ts";

export { recover } from "./_output_swap.ts";
export { Interrupted } from "./interrupt.ts";
export { checkReplaceable, OUTPUT_MARKER } from "./_output_state.ts";

/**
 * Contents of one output file: text, bytes, or text in chunks (an
 * `Iterable` or `AsyncIterable` of strings, written piece by piece, so a
 * very large JSON document never has to exist as one string; a piece may
 * also be bytes, written as they are).
 */
export type FileContents =
  | string
  | Uint8Array
  | Iterable<string | Uint8Array>
  | AsyncIterable<string | Uint8Array>;

/**
 * A file's contents, or a function of the file's current text (`null` when
 * it does not exist yet), called under the lock: how a file the user
 * appends to (the proposal ledger) is merged without losing a concurrent
 * run's lines.
 */
export type FileValue =
  | FileContents
  | ((previous: string | null) => FileContents | Promise<FileContents>);

/** Options of {@linkcode writeFilesAtomic}. */
export interface WriteOptions {
  /**
   * Runs under the lock, after recovery and before anything is written, on
   * the output directory as it is now; throw to refuse (nothing changes).
   * `gate analyze` re-checks here that the directory was made from the
   * same baseline, so check and swap are one step.
   */
  readonly check?: (dir: string) => void | Promise<void>;
  /**
   * Runs under the lock once every file is written into the new directory
   * (`staged`, beside `dir`) and before the swap, on that directory; throw
   * to refuse: the new directory is removed and `dir` is left as it was.
   * `gate import` validates the gates it built here, so what it writes is
   * what `gate validate` accepts, without writing the files twice.
   */
  readonly verify?: (staged: string) => void | Promise<void>;
  /**
   * Files outside `dir` replaced in the same step (the proposal ledger
   * given with `--ledger`): path to value. Each is locked, written beside
   * its target and renamed into place right after the directory swap.
   */
  readonly alongside?: Readonly<Record<string, FileValue>>;
  /**
   * The files are a failed run's report (`validation.json`). A failure
   * never replaces an earlier successful result: when `dir` holds one, the
   * files go to `<dir>.failed/` instead (replaced whole too), and the
   * returned path says so. A later successful run removes `<dir>.failed/`.
   */
  readonly failure?: boolean;
  /**
   * Told once when another live process holds the lock (its pid).
   * @default a line "waiting: another gatelab run (pid N) is writing <dir>" on stderr
   */
  readonly onWait?: (owner: number | null, lockFile: string) => void;
  /**
   * Told when an earlier output directory moved aside by a swap
   * (`.<name>.gatelab-old-<id>/`) cannot be removed: after this write's
   * swap, or left by an earlier one. The next write tries again.
   * @default a line "warning: the earlier result moved aside to <path> cannot be removed (...)" on stderr
   */
  readonly onLeftover?: (path: string, why: string) => void;
  /** Told after each file of `files` is written (its name and the milliseconds it took, formatting included). */
  readonly onWritten?: (name: string, ms: number) => void;
}

/**
 * Writes a command's outputs as one unit: the directory `dir` is replaced
 * by exactly `files` (plus the hidden {@linkcode OUTPUT_MARKER}), or left as
 * it was.
 *
 * Steps, under the exclusive lock `.<name>.gatelab-lock` beside `dir`
 * (stale locks of dead processes are recognised and removed):
 * 1. recover: finish or undo a swap a killed run left, delete its temporaries;
 * 2. refuse a `dir` that is a file, a symbolic link, the current directory,
 *    or a directory holding anything gatelab did not write (lib/core/_output_state.ts);
 * 3. `check`, if given;
 * 4. build `.<name>.gatelab-new-<id>/` with every file, the marker last;
 * 5. swap: rename `dir` away, rename the new directory to `dir` (the
 *    commit), rename the `alongside` files into place, delete the old one.
 *
 * A journal beside `dir` records steps 4-5, so the next write to `dir`
 * can tell an unfinished swap (undone: the earlier directory comes back)
 * from a finished one (completed). No fsync: the guarantee is about killed
 * processes, not power loss.
 *
 * SIGINT and SIGTERM are caught for the whole call (lib/core/interrupt.ts):
 * before the commit the write stops at its next step, undoes what it
 * started and throws {@linkcode Interrupted} (`dir` as it was, nothing
 * beside it); after the commit it finishes, then throws it (`dir` holds
 * the new result). The CLI ends with 130 or 143.
 *
 * @param dir Output directory; created with missing parents.
 * @param files File name (relative to `dir`, `/` for subdirectories) to value.
 * @param options Check under the lock, files alongside, failure reports.
 * @returns The directory written: `dir`, or `<dir>.failed` for a failure
 *   report that must not replace an earlier successful result.
 * @throws {PathError} When a path cannot be used (one line for the user).
 *
 * @example Re-running replaces the whole directory
 * ```ts
 * import { writeFilesAtomic } from "./atomic_write.ts";
 * import { deepEqual } from "node:assert/strict";
 * const parent = await Deno.makeTempDir();
 * const out = `${parent}/out`;
 * await writeFilesAtomic(out, { "a.json": "{}\n", "figures/f.svg": "<svg/>" });
 * await writeFilesAtomic(out, { "b.txt": ["hel", "lo\n"] }); // text in chunks
 * deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [".gatelab-output.json", "b.txt"]);
 * deepEqual(await Deno.readTextFile(`${out}/b.txt`), "hello\n");
 * deepEqual([...Deno.readDirSync(parent)].map((e) => e.name), ["out"]); // no temporaries left
 * await Deno.remove(parent, { recursive: true });
 * ```
 *
 * @example A failure keeps an earlier good result and reports beside it
 * ```ts
 * import { writeFilesAtomic } from "./atomic_write.ts";
 * import { equal } from "node:assert/strict";
 * const parent = await Deno.makeTempDir();
 * await writeFilesAtomic(`${parent}/out`, { "result.json": "{}\n" });
 * const where = await writeFilesAtomic(`${parent}/out`, { "validation.json": "{}\n" }, { failure: true });
 * equal(where, `${parent}/out.failed`);
 * equal(await Deno.readTextFile(`${parent}/out/result.json`), "{}\n");
 * await Deno.remove(parent, { recursive: true });
 * ```
 */
export async function writeFilesAtomic(
  dir: string,
  files: Readonly<Record<string, FileValue>>,
  options: WriteOptions = {},
): Promise<string> {
  using signals = catchSignals();
  const unchanged = `${dir} is left as it was`;
  const target = outputTarget(dir);
  const names = Object.keys(files).map((name) => [name, checkedName(name)] as const);
  const alongside = Object.entries(options.alongside ?? {}).map(([path, value]) => ({
    given: path,
    path: resolve(path),
    value,
  }));
  await makeParent(dir, target);
  for (const a of alongside) await checkAlongside(a.given, a.path);

  const lockOptions = {
    onWait: options.onWait ??
      ((pid: number | null) =>
        printError(`waiting: another gatelab run (pid ${pid ?? "?"}) is writing ${dir}`)),
  };
  const paths = [...new Set([target, ...alongside.map((a) => a.path)])].sort();
  const locks: HeldLock[] = [];
  try {
    for (const path of paths) {
      const given = path === target ? dir : alongside.find((a) => a.path === path)!.given;
      const lockName = join(dirname(given), basename(lockFileOf(path)));
      locks.push(await fsStep(given, () => acquireLock(path, lockOptions), lockName));
    }
    signals.stopIfCaught(unchanged);
    const onLeftover = options.onLeftover ?? reportLeftover;
    await recover(target, onLeftover);
    await recover(target + ".failed", onLeftover);
    for (const a of alongside) await removeStaleTemps(a.path);

    const state = await dirState(dir, target);
    const dest = options.failure && state === "good" ? target + ".failed" : target;
    const shown = dest === target ? dir : `${dir.replace(/[\\/]+$/, "")}.failed`;
    if (dest !== target) await dirState(shown, dest);
    if (!options.failure) await options.check?.(target);

    const id = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const parent = dirname(dest);
    const staged = join(parent, `.${basename(dest)}.gatelab-new-${id}`);
    const old = join(parent, `.${basename(dest)}.gatelab-old-${id}`);
    const external = alongside.map((a) => ({
      ...a,
      temp: join(dirname(a.path), `.${basename(a.path)}.gatelab-new-${id}`),
    }));
    const journal: Journal = {
      phase: "staging",
      dest,
      staged,
      old,
      alongside: external.map((e) => ({ temp: e.temp, target: e.path })),
    };
    // Every step below names, if the disk fills, the file as the user knows it.
    const step = <T>(file: string, f: () => Promise<T>) => fsStep(shown, f, file);
    const journalName = join(dirname(shown), basename(journalOf(target)));
    await step(journalName, () => writeJournal(target, journal));

    await step(shown, () => Deno.mkdir(staged));
    for (const [name, relativeName] of names) {
      const path = join(staged, relativeName);
      const started = performance.now();
      const contents = await valueOf(files[name]!, join(dest, relativeName));
      await step(join(shown, relativeName), async () => {
        await Deno.mkdir(dirname(path), { recursive: true });
        await writeContents(path, contents);
      });
      options.onWritten?.(name, performance.now() - started);
      signals.stopIfCaught(unchanged);
    }
    const marker = {
      format: "gatelab.output/v1",
      ok: !options.failure,
      files: names.map(([, n]) => n.split(SEPARATOR).join("/")).sort(),
    };
    await step(
      join(shown, OUTPUT_MARKER),
      () => Deno.writeTextFile(join(staged, OUTPUT_MARKER), `${JSON.stringify(marker, null, 2)}\n`),
    );
    for (const e of external) {
      const contents = await valueOf(e.value, e.path);
      await fsStep(e.given, () => writeContents(e.temp, contents), e.given);
    }
    if (!options.failure && options.verify !== undefined) {
      // The check only reads the new directory: a signal need not wait for its end.
      await signals.race(Promise.resolve().then(() => options.verify!(staged)), unchanged);
    }
    signals.stopIfCaught(unchanged);

    await step(journalName, () => writeJournal(target, { ...journal, phase: "commit" }));
    if (state !== "missing" || dest !== target) {
      await step(shown, async () => {
        try {
          await Deno.rename(dest, old);
        } catch (error) {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        }
      });
    }
    await step(shown, () => Deno.rename(staged, dest)); // the commit
    for (const e of external) await fsStep(e.given, () => Deno.rename(e.temp, e.path), e.given);
    await Deno.remove(journalOf(target));
    await removeOld(old, (_path, why) => onLeftover(join(dirname(shown), basename(old)), why));
    if (!options.failure) await removeOwned(target + ".failed");
    signals.stopIfCaught(`${shown} holds the new result`);
    return shown;
  } catch (error) {
    // Undo what this call started (a killed process leaves it to the next run);
    // only with the lock held, never touching another run's temporaries.
    if (locks.some((l) => l.path === lockFileOf(target))) await recover(target).catch(() => {});
    throw error;
  } finally {
    for (const lock of locks.reverse()) await lock.release();
  }
}

/**
 * Writes one file atomically: a temporary file beside it, then a rename.
 * For single files that are not a command's output directory (cache
 * entries, `gate sql --out`). Creates missing parent directories. A full
 * disk is a {@linkcode PathError} with code `io_error` (the file is left
 * as it was); other operating-system errors are thrown as they are.
 *
 * @example A file written whole, its missing parent directory made, nothing left beside it
 * ```ts
 * import { writeFileAtomic } from "./atomic_write.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/audit/ledger.jsonl`, "{}\n");
 * equal(await Deno.readTextFile(`${dir}/audit/ledger.jsonl`), "{}\n");
 * deepEqual([...Deno.readDirSync(`${dir}/audit`)].map((e) => e.name), ["ledger.jsonl"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(path: string, contents: FileContents): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const temp = join(
    dirname(path),
    `.${basename(path)}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`,
  );
  const release = holdTemporary(temp);
  try {
    await writeContents(temp, contents);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    if (isDiskFull(error)) throw diskFull(path, "nothing was written");
    throw error;
  } finally {
    release();
  }
}

/**
 * Writes several files into `dir` in place, each atomically (temporary
 * file, rename), leaving other files in `dir` alone. Only for trees that
 * are not a command's output directory (the generated demo data, which is
 * checked in and pruned by its writer); commands use
 * {@linkcode writeFilesAtomic}.
 *
 * @example
 * ```ts
 * import { writeFilesInPlace } from "./atomic_write.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/keep.txt`, "x");
 * await writeFilesInPlace(dir, { "a/b.txt": "hello\n" });
 * deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["a", "keep.txt"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFilesInPlace(
  dir: string,
  files: Readonly<Record<string, FileContents>>,
): Promise<void> {
  const suffix = `.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const staged: [string, string][] = [];
  try {
    for (const [name, contents] of Object.entries(files)) {
      const target = join(dir, checkedName(name));
      await Deno.mkdir(dirname(target), { recursive: true });
      const temp = target + suffix;
      staged.push([temp, target]);
      await writeContents(temp, contents);
    }
  } catch (error) {
    for (const [temp] of staged) await Deno.remove(temp).catch(() => {});
    throw error;
  }
  for (const [temp, target] of staged) await Deno.rename(temp, target);
}

/** Stable JSON text: two-space indent and a final newline. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/**
 * Runs one file-system step; an operating-system error (permission, read-only
 * or full disk, a file in the way, a mount point) becomes a
 * {@linkcode PathError} naming `given`: an `io_error` naming `file` when the
 * disk is full, else a `usage_error`. Nothing is replaced by then (the
 * caller undoes what it started), so the message says `given` is as it was.
 */
async function fsStep<T>(given: string, step: () => Promise<T>, file = given): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PathError) throw error;
    if (isDiskFull(error)) throw diskFull(file, `${given} is left as it was`);
    if (isBusy(error)) throw new PathError(given, MOUNT_POINT);
    const os = [
      Deno.errors.NotFound,
      Deno.errors.PermissionDenied,
      Deno.errors.NotCapable,
      Deno.errors.AlreadyExists,
      Deno.errors.IsADirectory,
      Deno.errors.NotADirectory,
    ].some((kind) => error instanceof kind) || /space|read-only|quota/i.test(String(error));
    if (!os) throw error;
    throw new PathError(given, `cannot be written: ${fsProblem(error)}`);
  }
}

/** `dir` resolved, after refusing paths that can never be an output directory. */
function outputTarget(dir: string): string {
  if (dir === "") throw new PathError('""', "is empty; expected an output directory");
  const target = resolve(dir);
  if (dirname(target) === target) {
    throw new PathError(
      dir,
      "is the root directory; expected a directory of its own for the outputs",
    );
  }
  let cwd: string | null = null;
  try {
    cwd = Deno.cwd();
  } catch { /* no read permission for the cwd: nothing to compare */ }
  if (cwd !== null && (cwd === target || cwd.startsWith(target + SEPARATOR))) {
    throw new PathError(
      dir,
      "is (or contains) the current directory; the output directory is replaced whole, so give a directory of its own",
    );
  }
  return target;
}

/** Creates the parent of the output directory (with missing ancestors). */
async function makeParent(dir: string, target: string): Promise<void> {
  try {
    await Deno.mkdir(dirname(target), { recursive: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists || error instanceof Deno.errors.NotADirectory) {
      throw new PathError(dir, "has a file where a directory is expected in its path");
    }
    throw new PathError(dir, fsProblem(error));
  }
}

/** A file written alongside must be a file (or missing) in an existing directory. */
async function checkAlongside(given: string, path: string): Promise<void> {
  try {
    const info = await Deno.lstat(path);
    if (info.isDirectory) throw new PathError(given, "is a directory; expected a file");
    if (!info.isFile) throw new PathError(given, "is not a regular file; expected a file");
  } catch (error) {
    if (error instanceof PathError) throw error;
    if (!(error instanceof Deno.errors.NotFound)) throw new PathError(given, fsProblem(error));
  }
  try {
    if (!(await Deno.stat(dirname(path))).isDirectory) {
      throw new PathError(given, "has a file where a directory is expected in its path");
    }
  } catch (error) {
    if (error instanceof PathError) throw error;
    throw new PathError(
      given,
      `cannot be written: its directory ${dirname(given) || "."} ${fsProblem(error)}`,
    );
  }
}

/** A relative output name without `..`, absolute parts or the marker's name. */
function checkedName(name: string): string {
  const n = normalize(name);
  if (
    name === "" || isAbsolute(name) || n === "." || n === ".." ||
    n.startsWith(`..${SEPARATOR}`) || n === OUTPUT_MARKER
  ) {
    throw new RangeError(`Cannot write output file "${name}": not a plain relative name`);
  }
  return n;
}

async function valueOf(value: FileValue, current: string): Promise<FileContents> {
  if (typeof value !== "function") return value;
  let previous: string | null = null;
  try {
    previous = await Deno.readTextFile(current);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return await value(previous);
}

async function writeContents(path: string, contents: FileContents): Promise<void> {
  if (typeof contents === "string") {
    return await Deno.writeTextFile(path, contents, { createNew: true });
  }
  if (contents instanceof Uint8Array) {
    return await Deno.writeFile(path, contents, { createNew: true });
  }
  using file = await Deno.open(path, { write: true, createNew: true });
  await writeTextPieces(file, contents);
}
