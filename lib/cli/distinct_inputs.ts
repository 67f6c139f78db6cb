/**
 * Inputs given twice: the same file under two paths, or two files with the
 * same bytes, would have their rows counted twice (or one run be its own
 * baseline). Used by `gate import table` and `gate import inspect`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { UsageError } from "./args.ts";
import type { GivenPath } from "./paths.ts";

function shown(p: GivenPath): string {
  return p.label.startsWith("-") ? `${p.label} ${p.path}` : p.path;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(1 << 20);
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    hash.update(buffer.subarray(0, n));
  }
  return hash.digest("hex");
}

/**
 * Refuses two inputs that are one file (one device and inode) or hold the
 * same bytes (same size, then same sha256; only files of equal size are
 * hashed). The message names both paths and why it matters: a bare log
 * given as masked too cannot be its own baseline; any other input given
 * twice would be counted twice.
 *
 * @param inputs The input files, as given (already checked to be regular files).
 * @throws {UsageError} `--masked a.eval and --masked b.eval have the same content (sha256 ...): ...`.
 *
 * @example
 * ```ts
 * import { distinctInputs } from "./distinct_inputs.ts";
 * import { rejects } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "task_id\nt1\n");
 * await Deno.copyFile(`${dir}/a.csv`, `${dir}/b.csv`);
 * await rejects(
 *   distinctInputs([{ label: "table file", path: `${dir}/a.csv` }, { label: "table file", path: `${dir}/b.csv` }]),
 *   /a\.csv and .*b\.csv have the same content \(sha256 [0-9a-f]{12}\.\.\.\): its rows would be imported twice; give each input once$/,
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function distinctInputs(inputs: readonly GivenPath[]): Promise<void> {
  const infos = await Promise.all(inputs.map((p) => Deno.stat(p.path)));
  const hashes = new Map<number, string>();
  const hashOf = async (k: number) => {
    let h = hashes.get(k);
    if (h === undefined) hashes.set(k, h = await sha256OfFile(inputs[k]!.path));
    return h;
  };
  for (let j = 1; j < inputs.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = infos[i]!, b = infos[j]!;
      const sameFile = a.dev === b.dev && a.ino !== null && a.ino === b.ino;
      if (!sameFile && a.size !== b.size) continue;
      const hash = sameFile ? null : await hashOf(i);
      if (hash !== null && hash !== await hashOf(j)) continue;
      const first = inputs[i]!, second = inputs[j]!;
      const arms = new Set([first.label, second.label]);
      throw new UsageError(
        `${shown(first)} and ${shown(second)} ${
          hash === null ? "are one file" : `have the same content (sha256 ${hash.slice(0, 12)}...)`
        }: ${
          arms.has("--bare") && arms.has("--masked")
            ? "a masked run cannot be its own bare run; give --bare the log of the run without the skill"
            : "its rows would be imported twice; give each input once"
        }`,
      );
    }
  }
}
