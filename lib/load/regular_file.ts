/**
 * Thrown by {@linkcode openRegularFile} when the path names something that
 * is not a regular file (a directory, a FIFO, a device, a socket).
 */
export class NotRegularFileError extends Error {
  constructor(readonly path: string, readonly kind: string) {
    super(`not a regular file (${kind})`);
    this.name = "NotRegularFileError";
  }
}

/** What a path that is not a regular file is, in words. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a file";
}

/**
 * Opens a file for reading only when it is a regular file (symbolic links
 * followed). Opening a FIFO would wait for a writer forever and a device
 * may never end, so input files are checked before they are opened.
 *
 * @param path File to open.
 * @returns The open file.
 * @throws {NotRegularFileError} When the path is not a regular file.
 * @throws Deno.errors.NotFound and other I/O errors of `Deno.stat`/`Deno.open`.
 *
 * @example
 * ```ts
 * import { NotRegularFileError, openRegularFile } from "./regular_file.ts";
 * import { rejects } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await rejects(openRegularFile(dir), (e) => e instanceof NotRegularFileError && e.message === "not a regular file (a directory)");
 * await Deno.remove(dir);
 * ```
 */
export async function openRegularFile(path: string): Promise<Deno.FsFile> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new NotRegularFileError(path, kindOf(info));
  return await Deno.open(path, { read: true });
}

/**
 * The reason an input file could not be read, for an `io_error` message.
 *
 * @param error What reading threw.
 * @returns A short reason such as `file not found`.
 *
 * @example
 * ```ts
 * import { readFailure } from "./regular_file.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(readFailure(new Deno.errors.NotFound("x")), "file not found");
 * ```
 */
export function readFailure(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "file not found";
  if (error instanceof NotRegularFileError) return error.message;
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "not a regular file (a directory)";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads a whole file when it is a regular file (see {@linkcode openRegularFile}).
 *
 * @param path File to read.
 * @returns Its bytes.
 * @throws {NotRegularFileError} When the path is not a regular file.
 * @throws Deno.errors.NotFound and other I/O errors.
 *
 * @example
 * ```ts
 * import { readRegularFile } from "./regular_file.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}");
 * deepEqual(new TextDecoder().decode(await readRegularFile(path)), "{}");
 * await Deno.remove(path);
 * ```
 */
export async function readRegularFile(path: string): Promise<Uint8Array> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new NotRegularFileError(path, kindOf(info));
  return await Deno.readFile(path);
}
