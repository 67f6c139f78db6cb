/**
 * Test helpers for a stage's `files(doc)`: the bytes of a file value as
 * writeFilesAtomic writes them, and the check that a command wrote exactly
 * those files.
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import type { FileValue } from "../lib/core/atomic_write.ts";

/** The bytes of a file value (text, bytes, chunks of either, or a merge function given no file). */
export async function fileBytes(value: FileValue | undefined): Promise<Uint8Array> {
  if (value === undefined) throw new Error("no such file");
  const contents = typeof value === "function" ? await value(null) : value;
  const encoder = new TextEncoder();
  if (typeof contents === "string") return encoder.encode(contents);
  if (contents instanceof Uint8Array) return contents;
  const parts: Uint8Array[] = [];
  for await (const part of contents) {
    parts.push(typeof part === "string" ? encoder.encode(part) : part);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The files a command wrote into `dir`, sorted: gatelab's marker and those `skip` names aside. */
export function writtenNames(dir: string, skip: (name: string) => boolean = () => false): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => !n.startsWith(".") && !skip(n))
    .sort();
}

/**
 * Checks that `files` holds exactly the files written into `dir` (see
 * {@linkcode writtenNames}), byte for byte; returns each file's text.
 */
export async function sameAsWritten(
  files: Readonly<Record<string, FileValue>>,
  dir: string,
  skip?: (name: string) => boolean,
): Promise<Record<string, string>> {
  deepEqual(Object.keys(files).sort(), writtenNames(dir, skip));
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(files)) {
    const bytes = await fileBytes(value);
    deepEqual(bytes, await Deno.readFile(join(dir, name)), `${name} differs from the command's`);
    texts[name] = new TextDecoder().decode(bytes);
  }
  return texts;
}
