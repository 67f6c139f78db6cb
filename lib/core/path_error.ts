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

  constructor(path: string, problem: string) {
    super(`${path} ${problem}`);
    this.name = "PathError";
    this.path = path;
  }
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
