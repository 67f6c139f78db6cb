/**
 * `deno task gen-demo`: regenerates every file under data/demo/ from the
 * seeded simulator. Needs `--allow-read=. --allow-write=data/demo`.
 *
 * @module
 */
import { writeDemo } from "./write.ts";
import { printError } from "../core/terminal_text.ts";

if (import.meta.main) {
  const dir = Deno.args[0] ?? "data/demo";
  const { written, removed } = await writeDemo(dir);
  printError(`gen-demo: wrote ${written.length} files to ${dir}/`);
  for (const path of removed) printError(`gen-demo: removed stale ${path}`);
}
