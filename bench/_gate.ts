/**
 * gatelab's command line as users start it: the `gate` task of deno.json
 * (its permissions and flags), so the benches time what `deno task gate`
 * runs and cannot drift from it.
 *
 * @module
 */

/**
 * Arguments of `deno` for `deno task gate <args>`.
 *
 * @param args The gate command's own arguments (`analyze <gate> ...`).
 * @returns `run`, the task's flags, its entry module, then `args`.
 */
export function gateArgs(args: readonly string[]): string[] {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  // The task's leading VAR=value words (lazy npm caching) only matter on a fresh cache.
  const words = String(config.tasks.gate).trim().split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  const [program, ...task] = words;
  if (program !== "deno") throw new Error(`deno.json's gate task does not start deno: ${program}`);
  return [...task, ...args];
}
