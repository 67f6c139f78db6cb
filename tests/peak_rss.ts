/**
 * The real CLI with its memory measured: `deno task gate <args>` as
 * tests/import_gate.ts runs it, under GNU time (`time -f %M`: the peak
 * resident set of the process, in KiB). Without `time` (not on PATH, or not
 * granted to the tests) the command still runs and its peak is null.
 */
import { type Ran } from "./import_gate.ts";
import { gateTask, gateTaskArgs, ROOT } from "./gate_process.ts";
import { IN_CI, mayRun, warnSkip } from "./ci_tools.ts";

/** What a CLI run printed and returned, and its peak RSS in bytes (null without GNU time). */
export interface RanWithMemory extends Ran {
  readonly peakRss: number | null;
}

const MARK = "GATELAB_PEAK_RSS_KIB";
let warned = false;

/** Runs `deno task gate <args>` in `cwd`, measuring its peak RSS. */
export async function gateMeasured(cwd: string, args: readonly string[]): Promise<RanWithMemory> {
  const timed = mayRun("time") || IN_CI;
  if (!timed && !warned) {
    warned = true;
    warnSkip("peak memory not measured: GNU time may not run (not on PATH, or not in --allow-run)");
  }
  const command = [...gateTaskArgs(), ...args];
  const out = await new Deno.Command(timed ? "time" : "deno", {
    args: timed ? ["-f", `${MARK} %M`, "deno", ...command] : command,
    cwd: ROOT,
    env: { ...gateTask().env, INIT_CWD: cwd, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  let stderr = text(out.stderr);
  let peakRss: number | null = null;
  let code = out.code;
  if (timed) {
    const m = new RegExp(`(?:Command exited with non-zero status \\d+\\n)?${MARK} (\\d+)\\n$`)
      .exec(stderr);
    if (m === null) throw new Error(`no peak RSS from time: ${stderr.slice(-500)}`);
    peakRss = Number(m[1]) * 1024;
    stderr = stderr.slice(0, m.index);
    code = out.code;
  }
  return { code, stdout: text(out.stdout), stderr, peakRss };
}
