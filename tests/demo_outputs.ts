/**
 * Test helper: the demo's outputs, written once per code version into
 * `.cache/test-demo/<key>/` and shared by every test file and every test
 * run that reads them (`deno test` gives each file its own module state, so
 * an in-memory cache would run the four 10,000-draw analyses once per file).
 *
 * The key is {@linkcode codeVersion} (the commit and a hash of lib/) plus a
 * hash of data/ and of this file, so any change to the code, the demo data
 * or how the demo is made writes a fresh directory; older ones are removed.
 * The first caller writes it under the lock `.<key>.gatelab-lock`
 * (lib/core/output_lock.ts: waited for by the other files of a
 * `--parallel` run, taken over when its holder died) and marks it complete
 * with `<key>.done`; a directory without its mark is a write that was cut
 * short and is made again. The files are read-only (mode 0444, directories
 * 0555): a test that needs to write works in a temporary directory of its
 * own.
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_STEPS } from "../lib/cli/demo.ts";
import { main } from "../lib/cli/main.ts";
import { codeVersion } from "../lib/core/meta.ts";
import { acquireLock, lockFileOf } from "../lib/core/output_lock.ts";
import { sha256Hex } from "../lib/core/sha256.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, ".cache", "test-demo");

/**
 * Writes every output of `deno task demo` into `out` (an empty directory)
 * instead of reports/demo; the one place that knows how the demo is made.
 * The steps' lines are kept for a failure's message, not printed between
 * the test names.
 */
async function writeDemo(out: string): Promise<void> {
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
}

let cached: Promise<string> | null = null;

/** The directory holding the demo's outputs (read-only; written on the first call of a code version). */
export function demoOutputs(): Promise<string> {
  cached ??= fixture();
  return cached;
}

async function fixture(): Promise<string> {
  const key = `${codeVersion()}.data.${inputsHash().slice(0, 12)}`;
  const dir = join(FIXTURES, key);
  const done = `${dir}.done`;
  if (await exists(done)) return dir;
  await Deno.mkdir(FIXTURES, { recursive: true });
  const lock = await acquireLock(dir);
  try {
    if (await exists(done)) return dir;
    await removeTree(dir);
    await Deno.mkdir(dir);
    await writeDemo(dir);
    await setWritable(dir, false);
    await Deno.writeTextFile(done, `${JSON.stringify({ key, steps: DEMO_STEPS.length })}\n`);
    await removeOthers(key);
  } finally {
    await lock.release();
  }
  return dir;
}

/** sha256 over data/'s files and this file (relative path, NUL, bytes, NUL; sorted paths). */
function inputsHash(): string {
  const files = [fileURLToPath(import.meta.url)];
  const walk = (dir: string): void => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.isFile) files.push(path);
    }
  };
  walk(join(ROOT, "data"));
  const nul = new Uint8Array([0]);
  const encoder = new TextEncoder();
  const chunks = files.map((f) => relative(ROOT, f).split("\\").join("/")).sort()
    .flatMap((path) => [encoder.encode(path), nul, Deno.readFileSync(join(ROOT, path)), nul]);
  return sha256Hex(...chunks);
}

/** Removes the fixtures of other keys, except one being written (its lock file is there). */
async function removeOthers(key: string): Promise<void> {
  for await (const entry of Deno.readDir(FIXTURES)) {
    const name = entry.name.replace(/\.done$/, "");
    if (name === key || name.startsWith(".")) continue;
    const dir = join(FIXTURES, name);
    if (await exists(lockFileOf(dir))) continue;
    await removeTree(dir);
    await Deno.remove(`${dir}.done`).catch(() => {});
  }
}

/** Removes a fixture directory, read-only or not; nothing when it is absent. */
async function removeTree(dir: string): Promise<void> {
  if (!(await exists(dir))) return;
  await setWritable(dir, true);
  await Deno.remove(dir, { recursive: true });
}

/** Files 0444 or 0644, directories 0555 or 0755, below and including `dir` (not on Windows). */
async function setWritable(dir: string, writable: boolean): Promise<void> {
  if (Deno.build.os === "windows") return;
  if (writable) await Deno.chmod(dir, 0o755);
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await setWritable(path, writable);
    else if (entry.isFile) await Deno.chmod(path, writable ? 0o644 : 0o444);
  }
  if (!writable) await Deno.chmod(dir, 0o555);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
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

// `deno task test` starts this first, beside the type check, so the files that read the demo
// find it written (or being written: they wait for the lock) instead of holding a job each.
if (import.meta.main) await demoOutputs();
