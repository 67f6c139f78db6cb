/**
 * contributions.json as a test reads it: the parsed file with its per-task
 * rows in `tasks`, from the tidy `tasks` table it names (or its own, as an
 * older gatelab wrote them), through the readers' own function.
 *
 * @module
 */
import { join } from "node:path";
import { contributionsTaskRows } from "../lib/contract/outputs/task_rows_file.ts";

/**
 * Reads `<dir>/contributions.json` with its rows in `tasks`.
 *
 * @param dir An analysis output directory.
 * @returns The parsed document (throws when the rows cannot be read).
 */
// deno-lint-ignore no-explicit-any
export async function readContributions(dir: string): Promise<any> {
  const doc = JSON.parse(await Deno.readTextFile(join(dir, "contributions.json")));
  const rows = await contributionsTaskRows(doc, dir);
  if (!rows.ok) throw new Error(`${rows.issue.file}: ${rows.issue.message}`);
  return { ...doc, tasks: rows.rows };
}
