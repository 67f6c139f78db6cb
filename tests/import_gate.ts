/**
 * Helpers of the import tests: the real CLI as `deno task gate` starts it
 * (the gate task's permissions from deno.json, INIT_CWD set), temporary
 * directories, and small tables.
 */
import { fileURLToPath } from "node:url";
import { ImportDocumentSchema } from "../lib/import/document.ts";
import { gateTask, gateTaskArgs } from "./gate_process.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** What a CLI run printed and returned. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `deno task gate <args>` as a user in `cwd` would. */
export async function gate(cwd: string, args: readonly string[]): Promise<Ran> {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: [...gateTaskArgs(), ...args],
    cwd: ROOT,
    env: { ...gateTask().env, INIT_CWD: cwd, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

/** A temporary directory removed at the end of the scope. */
export async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "gatelab-import-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Whether a path exists. */
export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A small clean table as CSV text: `tasks` tasks, a bare row and a masked
 * row each, versions `a.v1`, `b.v1` and `c.v1` as mask columns with the
 * masked row's bits from a fixed pattern, reward and r_strict equal.
 */
export function smallCsv(tasks = 8): string {
  const lines = ["task_id,arm,reward,r_strict,mask:a.v1,mask:b.v1,mask:c.v1"];
  for (let t = 0; t < tasks; t++) {
    const bits = [t & 1, (t >> 1) & 1, (t >> 2) & 1 || (t === 0 ? 1 : 0)];
    const bare = ((t * 37) % 10) / 10;
    const masked = bare + 0.1 * bits[0]! + 0.05 * bits[1]! - 0.02 * bits[2]! + ((t * 13) % 7) / 100;
    lines.push(`t${t},bare,${bare},${bare},0,0,0`);
    lines.push(`t${t},masked,${masked},${masked},${bits.join(",")}`);
  }
  return lines.join("\n") + "\n";
}

/** An import.json value, checked against its schema (throws when it does not match). */
// deno-lint-ignore no-explicit-any
export function checkedImport(value: unknown): any {
  ImportDocumentSchema.parse(value);
  return value;
}
