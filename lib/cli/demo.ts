/**
 * `deno task demo`: the main job on the embedded demo data. Runs the same
 * commands a user would, in-process, and writes everything under
 * `reports/demo/`. Exits non-zero if any step fails.
 *
 * @module
 */
import { main } from "./main.ts";

const DATA = "data/demo";
const OUT = "reports/demo";

/** The demo's steps: a title and the `gate` command line it runs. */
export const DEMO_STEPS: readonly (readonly [string, readonly string[]])[] = [
  ["Validate the cold-start gate", ["validate", `${DATA}/ckpt-a/gate-a`, "--out", `${OUT}/validate-gate-a`]],
];

if (import.meta.main) {
  let failed = 0;
  for (const [title, args] of DEMO_STEPS) {
    console.error(`\n== ${title}\n$ deno task gate ${args.join(" ")}`);
    const code = await main([...args]);
    if (code !== 0) {
      console.error(`step failed with exit code ${code}: ${title}`);
      failed++;
    }
  }
  console.error(failed === 0 ? `\ndemo done: outputs in ${OUT}/` : `\ndemo: ${failed} step(s) failed`);
  Deno.exit(failed === 0 ? 0 : 1);
}
