import { dirname, join } from "node:path";

/**
 * Writes several files into `dir` so that none is left half-written: every
 * file is first written to a temporary name in the same directory, and only
 * when all writes succeeded are they renamed into place. On failure the
 * temporaries are removed and existing files are untouched.
 *
 * @param dir Output directory; created if missing.
 * @param files File name (relative to `dir`) to contents.
 *
 * @example
 * ```ts
 * import { writeFilesAtomic } from "./atomic_write.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await writeFilesAtomic(dir, { "a.json": "{}\n", "b.txt": "hello\n" });
 * deepEqual(await Deno.readTextFile(`${dir}/b.txt`), "hello\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFilesAtomic(
  dir: string,
  files: Readonly<Record<string, string | Uint8Array>>,
): Promise<void> {
  const suffix = `.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const staged: [string, string][] = [];
  try {
    for (const [name, contents] of Object.entries(files)) {
      const target = join(dir, name);
      await Deno.mkdir(dirname(target), { recursive: true });
      const temp = target + suffix;
      staged.push([temp, target]);
      if (typeof contents === "string") await Deno.writeTextFile(temp, contents);
      else await Deno.writeFile(temp, contents);
    }
  } catch (error) {
    for (const [temp] of staged) await Deno.remove(temp).catch(() => {});
    throw error;
  }
  for (const [temp, target] of staged) await Deno.rename(temp, target);
}

/** Writes one file atomically (temporary file, then rename). */
export function writeFileAtomic(path: string, contents: string | Uint8Array): Promise<void> {
  return writeFilesAtomic(dirname(path), { [path.slice(dirname(path).length + 1)]: contents });
}

/** Stable JSON text: two-space indent and a final newline. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
