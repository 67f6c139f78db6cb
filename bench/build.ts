/**
 * `deno task bench --build [--repeats 1]`: `gate build` of the study of the
 * build tests (tests/build_study.ts: 4 imports and 14 steps, seven gates
 * over four checkpoints from CSV tables and inspect_ai logs) at `--jobs 1`
 * and `--jobs 2`, and the no-op rebuild, side by side with the same 18
 * commands run one by one from a shell script (`by_hand.sh`, each a fresh
 * `deno run` as the `gate` task starts it). Wall time and CPU time (user +
 * system, of the process and its children) through /usr/bin/time, best of
 * `--repeats`; the ratios are against the script. A benchmark, not a test:
 * nothing is asserted, but every build's outputs are compared with the
 * script's, byte for byte, and a difference stops the bench.
 *
 * @module
 */
import { join } from "node:path";
import { copyStudy, filesOf, HAND_COMMANDS, ROOT, writeStudy } from "../tests/build_study.ts";
import { gateTask } from "../tests/gate_process.ts";

const decoder = new TextDecoder();

/** Wall and CPU seconds of one command, run in the project root as the task does. */
async function timed(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ wall: number; cpu: number; stdout: string }> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "GATELAB_TIME %e %U %S", ...args],
    cwd: ROOT,
    env: { ...gateTask().env, NO_COLOR: "1", GATELAB_NO_PROGRESS: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = decoder.decode(out.stderr);
  if (!out.success) throw new Error(`Cannot run "${args.join(" ")}": ${err.slice(-2000)}`);
  const m = /GATELAB_TIME (\S+) (\S+) (\S+)/.exec(err)!;
  return {
    wall: Number(m[1]),
    cpu: Number(m[2]) + Number(m[3]),
    stdout: decoder.decode(out.stdout),
  };
}

/** `gate build` in `dir` as `deno task gate build` starts it there. */
function build(dir: string, args: readonly string[]) {
  return timed(["deno", ...gateTask().args, "build", ...args], { INIT_CWD: dir });
}

/** The script of the same commands, one `deno run` each, run from the project root. */
function script(dir: string): string {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const envWords = Object.entries(gateTask().env).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
  const lines = HAND_COMMANDS.map((argv) =>
    `${envWords} INIT_CWD=${quote(dir)} deno ${
      [...gateTask().args, ...argv].map(quote).join(" ")
    } >/dev/null`
  );
  return ["#!/bin/sh", "set -e", `cd ${quote(ROOT)}`, ...lines, ""].join("\n");
}

function sameOutputs(a: string, b: string): void {
  const x = filesOf(join(a, "out")), y = filesOf(join(b, "out"));
  x.delete(".gatelab-build.json");
  const same = x.size === y.size && [...x].every(([k, v]) => {
    const w = y.get(k);
    return w !== undefined && w.length === v.length && v.every((byte, i) => byte === w[i]);
  });
  if (!same) throw new Error(`the outputs of ${a} and ${b} differ`);
}

/** Runs the build benchmark and prints the table. */
export async function runBuildBench(options: { repeats: number }): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "gatelab-bench-build-" });
  try {
    const inputs = join(root, "inputs");
    await writeStudy(inputs);
    const best = (xs: { wall: number; cpu: number }[]) => ({
      wall: Math.min(...xs.map((x) => x.wall)),
      cpu: Math.min(...xs.map((x) => x.cpu)),
    });
    const runs: Record<string, { wall: number; cpu: number }[]> = {
      script: [],
      "build --jobs 1": [],
      "build --jobs 2": [],
      "no-op rebuild": [],
    };
    for (let r = 0; r < options.repeats; r++) {
      const hand = join(root, `hand-${r}`);
      await copyStudy(inputs, hand);
      await Deno.writeTextFile(join(hand, "by_hand.sh"), script(hand));
      runs.script!.push(await timed(["sh", join(hand, "by_hand.sh")]));
      for (const jobs of [1, 2]) {
        const dir = join(root, `jobs${jobs}-${r}`);
        await copyStudy(inputs, dir);
        runs[`build --jobs ${jobs}`]!.push(await build(dir, ["--jobs", String(jobs), "--quiet"]));
        sameOutputs(dir, hand);
        if (jobs === 2) runs["no-op rebuild"]!.push(await build(dir, []));
      }
    }
    const script0 = best(runs.script!);
    console.log(
      `gate build of a study of ${HAND_COMMANDS.length} imports and steps ` +
        `(best of ${options.repeats}; ${navigator.hardwareConcurrency} cores; fresh processes)`,
    );
    console.log("                            wall s   cpu s   wall / script");
    for (const [name, xs] of Object.entries(runs)) {
      const b = best(xs);
      console.log(
        `  ${name.padEnd(24)} ${b.wall.toFixed(2).padStart(7)} ${b.cpu.toFixed(2).padStart(7)}` +
          `   ${(b.wall / script0.wall).toFixed(2).padStart(6)}`,
      );
    }
    console.log(
      "  (cpu: user + system of the process and its workers; the outputs of every build equal" +
        " the script's byte for byte)",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
