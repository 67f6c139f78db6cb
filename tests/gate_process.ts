/**
 * The CLI as a user runs it, for the fault-injection and fuzz tests: a real
 * `deno run` subprocess with exactly the permissions of the `gate` task in
 * deno.json, run in the project root with INIT_CWD set to the user's
 * directory (what `deno task gate` does). Needs `deno` on PATH (the test
 * task has --allow-run=deno).
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const DEMO = join(ROOT, "data", "demo");

/**
 * The `gate` task of deno.json as a command: the environment it sets
 * (`DENO_UNSTABLE_NPM_LAZY_CACHING=1`) and the words after `deno`
 * (`run --lock=deno.sql.lock --frozen --allow-... lib/cli/main.ts`).
 */
export function gateTask(): { env: Record<string, string>; args: string[] } {
  const task: string = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).tasks.gate;
  const words = task.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, value] = words.shift()!.split("=") as [string, string];
    env[name] = value;
  }
  equal(words.shift(), "deno", "the gate task runs deno");
  return { env, args: words };
}

/** The `gate` task's command line from deno.json, split: `run --allow-... lib/cli/main.ts`. */
export function gateTaskArgs(): string[] {
  return gateTask().args;
}

/** What a finished run printed. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `deno task gate <args>` as a user in `cwd` would. */
export function spawnGate(cwd: string, args: readonly string[]): Deno.ChildProcess {
  return new Deno.Command("deno", {
    args: [...gateTaskArgs(), ...args],
    cwd: ROOT,
    env: { ...gateTask().env, INIT_CWD: cwd, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Runs `deno task gate <args>` in `cwd` to the end. */
export async function gate(cwd: string, args: readonly string[]): Promise<Ran> {
  const { code, stdout, stderr } = await spawnGate(cwd, args).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

/** Every file under `dir` (relative path to contents as text), or null when `dir` is missing. */
export function tree(dir: string, prefix = ""): Record<string, string> | null {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const out: Record<string, string> = {};
  for (const e of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
    const rel = prefix + e.name;
    if (e.isDirectory) Object.assign(out, tree(join(dir, e.name), `${rel}/`));
    else if (e.isSymlink) out[rel] = `-> ${Deno.readLinkSync(join(dir, e.name))}`;
    else out[rel] = Deno.readTextFileSync(join(dir, e.name));
  }
  return out;
}
