/**
 * A path the user gave that cannot be used as given: an output directory
 * that is a file, a ledger that is a directory, a parent that cannot be
 * created. The CLI prints the message as one line and exits 2; it is never
 * a crash.
 *
 * @example
 * ```ts
 * import { PathError } from "./path_error.ts";
 * import { equal } from "node:assert/strict";
 * const e = new PathError("README.md", "is a file; expected a directory for the outputs");
 * equal(e.message, "README.md is a file; expected a directory for the outputs");
 * equal(e.path, "README.md");
 * ```
 */
export class PathError extends Error {
  /** The path as the user gave it. */
  readonly path: string;
  /**
   * `usage_error` for a path that cannot be used as given (the user's
   * choice); `io_error` for a fault of the machine while writing to a
   * usable path (the disk is full).
   */
  readonly code: "usage_error" | "io_error";

  constructor(
    path: string,
    problem: string,
    options: { readonly code?: "usage_error" | "io_error"; readonly message?: string } = {},
  ) {
    super(options.message ?? `${path} ${problem}`);
    this.name = "PathError";
    this.path = path;
    this.code = options.code ?? "usage_error";
  }
}

/**
 * The `io_error` of a write that ran out of space (`ENOSPC`, or a quota),
 * naming the file being written as the user knows it and what became of
 * the output.
 *
 * @example
 * ```ts
 * import { diskFull } from "./path_error.ts";
 * import { equal } from "node:assert/strict";
 * const e = diskFull("out/selection.json", "out is left as it was");
 * equal(e.code, "io_error");
 * equal(e.message, "disk full while writing out/selection.json; out is left as it was");
 * ```
 */
export function diskFull(file: string, outcome: string): PathError {
  return new PathError(file, "", {
    code: "io_error",
    message: `disk full while writing ${file}; ${outcome}`,
  });
}

/**
 * Whether an operating-system error means the disk (or a quota) is full.
 *
 * @example
 * ```ts
 * import { isDiskFull } from "./path_error.ts";
 * import { equal } from "node:assert/strict";
 * equal(isDiskFull(new Error("No space left on device (os error 28)")), true);
 * equal(isDiskFull(new Deno.errors.NotFound("x")), false);
 * ```
 */
export function isDiskFull(error: unknown): boolean {
  return /No space left on device|os error 28\b|Disk quota exceeded|os error 122\b/.test(
    String(error),
  );
}

/**
 * Whether an operating-system error is `EBUSY`: a mount point (or a
 * directory in use) cannot be renamed or removed.
 */
export function isBusy(error: unknown): boolean {
  return error instanceof Deno.errors.Busy ||
    /Device or resource busy|os error 16\b/.test(String(error));
}

/**
 * What an operating-system error on `path` means for the user, in words:
 * "does not exist", "permission denied", "is not a directory", ...
 *
 * @example
 * ```ts
 * import { fsProblem } from "./path_error.ts";
 * import { equal } from "node:assert/strict";
 * equal(fsProblem(new Deno.errors.NotFound("x")), "does not exist");
 * equal(fsProblem(new Deno.errors.PermissionDenied("x")), "cannot be written or read (permission denied)");
 * ```
 */
export function fsProblem(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "does not exist";
  if (error instanceof Deno.errors.AlreadyExists) return "already exists";
  if (error instanceof Deno.errors.IsADirectory) return "is a directory";
  if (error instanceof Deno.errors.NotADirectory) {
    return "has a file where a directory is expected in its path";
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return "cannot be written or read (permission denied)";
  }
  if (error instanceof Deno.errors.NotCapable) {
    return "is not accessible under this run's Deno permissions (its --allow-read and " +
      "--allow-write; system paths such as /proc, /dev and /sys need --allow-all, which the " +
      "gate task does not grant): choose another path";
  }
  if (/read-only/i.test(String(error))) {
    return "is on a read-only file system";
  }
  return `cannot be used (${error instanceof Error ? error.message : String(error)})`;
}
