/**
 * A JSONL input read whole for an audit: its lines visited, its sha256
 * recorded, and an unreadable file as an `io_error` issue (not a throw).
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { forEachJsonlLine } from "./jsonl.ts";

/** What {@linkcode readHashedJsonl} found: the parse issues and the file's sha256. */
export interface HashedJsonl {
  /** `parse_error` issues in line order, or one `io_error` when the file cannot be read. */
  readonly issues: readonly Issue[];
  /** sha256 of the bytes read; null when the file could not be read. */
  readonly sha256: string | null;
}

/**
 * Reads a JSONL file with {@linkcode forEachJsonlLine}, hashing its bytes as
 * they stream by. Issues that `visit` records itself (say a schema error of
 * a line) come before the returned parse issues, as the lines are read first.
 *
 * @param file The file.
 * @param visit Called for every parsed object line with its one-based number.
 * @returns The parse issues (or an `io_error` "cannot read: ...") and the sha256.
 *
 * @example
 * ```ts
 * import { readHashedJsonl } from "./hashed_jsonl.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a":1}\n');
 * const lines: number[] = [];
 * const read = await readHashedJsonl(path, (_value, line) => lines.push(line));
 * // sha256 of the 8 bytes '{"a":1}\n' (printf '{"a":1}\n' | sha256sum)
 * deepEqual([lines, read.issues, read.sha256?.slice(0, 12)], [[1], [], "e346432021b0"]);
 * deepEqual((await readHashedJsonl(`${path}.none`, () => {})).sha256, null);
 * await Deno.remove(path);
 * ```
 */
export async function readHashedJsonl(
  file: string,
  visit: (value: Record<string, unknown>, line: number) => void,
): Promise<HashedJsonl> {
  const chunks: Uint8Array[] = [];
  try {
    const issues = await forEachJsonlLine(file, visit, { onBytes: (c) => chunks.push(c.slice()) });
    return { issues, sha256: sha256Hex(...chunks) };
  } catch (error) {
    const message = `cannot read: ${error instanceof Error ? error.message : error}`;
    return { issues: [{ code: "io_error", message, file }], sha256: null };
  }
}
