/**
 * Wall-clock time of one command, for the benches that compare fresh
 * processes side by side (bench/import.ts, bench/sql.ts).
 *
 * @module
 */

const decoder = new TextDecoder();

/**
 * Runs `cmd args` to its end and returns its wall time in milliseconds.
 *
 * @throws Error with the command's standard error when it fails.
 */
export async function wall(cmd: string, args: readonly string[]): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, { args: [...args], stdout: "piped", stderr: "piped" })
    .output();
  const ms = performance.now() - t0;
  if (!out.success) {
    throw new Error(`Cannot run "${cmd} ${args.join(" ")}": ${decoder.decode(out.stderr)}`);
  }
  return ms;
}
