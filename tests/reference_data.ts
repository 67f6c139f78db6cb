/**
 * Reads the JSON a reference script in scripts/reference/ wrote under
 * tests/data/reference/ (`bash scripts/reference/regenerate.sh` re-runs
 * them all; CI does and fails when any file changes).
 *
 * @module
 */

/** The parsed `tests/data/reference/<name>.json`. */
export async function referenceJson<T = unknown>(name: string): Promise<T> {
  const url = new URL(`./data/reference/${name}.json`, import.meta.url);
  return JSON.parse(await Deno.readTextFile(url)) as T;
}
