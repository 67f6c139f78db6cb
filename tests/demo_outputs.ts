/**
 * Test helper: runs every step of `deno task demo` in-process with the
 * outputs in a fresh temporary directory instead of reports/demo, once per
 * test process.
 *
 * @module
 */
import { DEMO_STEPS } from "../lib/cli/demo.ts";
import { main } from "../lib/cli/main.ts";

let cached: Promise<string> | null = null;

/** Runs the demo into a temporary directory; returns its path (shared by the callers of one process). */
export function demoOutputs(): Promise<string> {
  cached ??= (async () => {
    const out = await Deno.makeTempDir({ prefix: "gatelab-demo-" });
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(out, { recursive: true });
      } catch { /* already gone */ }
    });
    // The steps' lines are kept for a failure's message, not printed between the test names.
    const { log, error } = console;
    const lines: string[] = [];
    console.log = console.error = (...parts: unknown[]) => lines.push(parts.join(" "));
    try {
      for (const [title, args, expected = 0] of DEMO_STEPS) {
        lines.length = 0;
        const mapped = args.map((a) => a.replace(/^reports\/demo(?=\/|$)/, out));
        const code = await main(mapped);
        if (code !== expected) {
          throw new Error(
            `demo step failed (exit ${code}, expected ${expected}): ${title}\n${lines.join("\n")}`,
          );
        }
      }
    } finally {
      console.log = log;
      console.error = error;
    }
    return out;
  })();
  return cached;
}

/** Every file under `dir` whose name ends with `suffix`, sorted. */
export async function filesUnder(dir: string, suffix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesUnder(path, suffix));
    else if (entry.name.endsWith(suffix)) found.push(path);
  }
  return found.sort();
}
