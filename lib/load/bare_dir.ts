import { isAbsolute, join, normalize, resolve } from "node:path";

/**
 * The bare run directory of a gate: `bare_run_dir` relative to the gate
 * directory itself (an absolute path is taken as is), normalised.
 *
 * "Relative to the gate directory" means to the directory gate.json is
 * really in: when the gate directory given is a symbolic link (or its
 * path passes through one), `..` climbs out of the directory it points to,
 * as the operating system resolves it, not out of the link's parent. The
 * path is kept as given (relative, lexically joined) when that names the
 * same directory; otherwise the real path is returned.
 *
 * @param gateDir The gate directory.
 * @param bareRunDir gate.json's `bare_run_dir`.
 * @returns The bare run directory.
 *
 * @example
 * ```ts
 * import { resolveBareDir } from "./bare_dir.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(resolveBareDir("data/ckpt-a/gate-a", "../bare-val"), "data/ckpt-a/bare-val");
 * deepEqual(resolveBareDir("data/g", "/runs/bare"), "/runs/bare");
 * ```
 *
 * @example A link to a gate directory reads the bare run beside the real one
 * ```ts
 * import { resolveBareDir } from "./bare_dir.ts";
 * import { deepEqual } from "node:assert/strict";
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${root}/study/gate`, { recursive: true });
 * await Deno.mkdir(`${root}/study/bare`);
 * await Deno.mkdir(`${root}/bare`); // a decoy beside the link
 * await Deno.symlink(`${root}/study/gate`, `${root}/link`);
 * deepEqual(resolveBareDir(`${root}/link`, "../bare"), `${root}/study/bare`);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function resolveBareDir(gateDir: string, bareRunDir: string): string {
  if (isAbsolute(bareRunDir)) return normalize(bareRunDir);
  const lexical = normalize(join(gateDir, bareRunDir));
  let realGate: string; // the path `..` in bare_run_dir climbs out of
  try {
    realGate = Deno.realPathSync(gateDir);
  } catch {
    return lexical; // no gate directory: its own read reports that
  }
  if (realGate === resolve(gateDir)) return lexical; // no link on the way: `..` is lexical
  const real = resolve(realGate, bareRunDir);
  try {
    if (Deno.realPathSync(lexical) === Deno.realPathSync(real)) return lexical;
  } catch { /* one of them does not exist: they differ */ }
  return real;
}
