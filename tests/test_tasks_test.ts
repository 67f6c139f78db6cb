/**
 * The test tasks of deno.json: `test` runs every file (CI runs it and
 * fails on any ignored test); `test-fast` leaves out the slow files, named
 * in its `--ignore` list: each takes 5 s or more on an idle 2-core machine
 * (browsers, LaTeX, notebooks, kill and fault runs, round trips through
 * Python) or reads the demo's outputs (tests/demo_outputs.ts, about 30 s to
 * write once per code version). The list names files that exist, and every
 * file that reads the demo's outputs is on it.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const tasks: Record<string, string> = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).tasks;

/**
 * The files `test-fast` leaves out. Each is a glob `**\/tests/<name>_test.ts`: with several
 * directories to search (`lib/ tests/`), `deno test` 2.9 ignores a plain path in `--ignore`.
 */
function slowFiles(): string[] {
  const ignore = /^deno task test-files '--ignore=(\S+)'$/.exec(tasks["test-fast"] ?? "")?.[1];
  ok(ignore, `test-fast is "deno task test-files '--ignore=<globs>'": ${tasks["test-fast"]}`);
  const globs = ignore.split(",");
  for (const glob of globs) ok(glob.startsWith("**/tests/"), glob);
  return globs.map((glob) => glob.slice("**/".length));
}

Deno.test("test tasks: test runs every file, test-fast the same files but the slow ones", () => {
  ok(tasks.test?.endsWith(" & deno task test-files"), tasks.test);
  ok(!tasks["test-files"]!.includes("--ignore"), tasks["test-files"]);
  ok(/ deno test (\S+ )*--parallel /.test(tasks["test-files"]!), tasks["test-files"]);
  const slow = slowFiles();
  deepEqual(slow, [...new Set(slow)].sort(), "sorted, each once");
  for (const file of slow) {
    ok(/^tests\/\w+_test\.ts$/.test(file), file);
    equal(Deno.statSync(`${ROOT}${file}`).isFile, true, `${file} exists`);
  }
});

Deno.test("test tasks: every test file that reads the demo's outputs is among the slow ones", () => {
  const slow = new Set(slowFiles());
  const readers = [...Deno.readDirSync(`${ROOT}tests`)]
    .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
    .filter((e) => /\bdemoOutputs\(\)/.test(Deno.readTextFileSync(`${ROOT}tests/${e.name}`)))
    .map((e) => `tests/${e.name}`).sort();
  ok(readers.length >= 7, readers.join(" "));
  deepEqual(readers.filter((f) => !slow.has(f)), []);
});
