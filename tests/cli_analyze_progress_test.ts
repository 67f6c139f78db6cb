/**
 * `gate analyze`'s progress after the validation, through the real CLI (a
 * `deno run` subprocess with the `gate` task's permissions, stderr a pipe,
 * so the non-terminal form: a line per 10%): the fit, the diagnostics and
 * interaction screen, each tidy table's Parquet encoding and each CSV's
 * writing. The demo's Gate A (400 rows) is far below the thresholds
 * (lib/cli/analysis_progress.ts), so the runs set GATELAB_PROGRESS_ALWAYS=1
 * and allow it to be read (the one permission added to the task's); without
 * it the same run prints no phase line. `--quiet` and GATELAB_NO_PROGRESS=1
 * print none, and the files are the same bytes with and without progress.
 *
 * Needs `deno` on PATH (the test task has --allow-run=deno).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { DEMO, gateTask, ROOT } from "./gate_process.ts";

const GATE = join(DEMO, "ckpt-a", "gate-a");

/** `deno task gate analyze GATE --out <out> --bootstrap 0 ...extra`, with these variables readable. */
async function analyze(out: string, env: Record<string, string>, extra: string[] = []) {
  const task = gateTask();
  const args = task.args.map((a) =>
    a === "--allow-env=INIT_CWD"
      ? "--allow-env=INIT_CWD,GATELAB_PROGRESS_ALWAYS,GATELAB_NO_PROGRESS"
      : a
  );
  ok(args.includes("--allow-env=INIT_CWD,GATELAB_PROGRESS_ALWAYS,GATELAB_NO_PROGRESS"));
  const { code, stderr } = await new Deno.Command("deno", {
    args: [...args, "analyze", GATE, "--out", out, "--bootstrap", "0", ...extra],
    cwd: ROOT,
    env: { ...task.env, INIT_CWD: ROOT, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, lines: new TextDecoder().decode(stderr).split("\n").filter((l) => l !== "") };
}

/** Every file under dir, by name, as bytes. */
async function files(dir: string): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile) out[e.name] = await Deno.readFile(join(dir, e.name));
  }
  return out;
}

/** A progress line of lib/core/progress.ts: `label done/total (pct%)`. */
const PROGRESS = /^.+ \d+\/\d+ \(\d+%\)$/;

Deno.test("gate analyze: a line per 10% of the fit, the screen, each encoding and each CSV written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-progress-" });
  try {
    const [shown, small, quiet, off] = await Promise.all([
      analyze(join(dir, "shown"), { GATELAB_PROGRESS_ALWAYS: "1", GATELAB_NO_PROGRESS: "0" }),
      analyze(join(dir, "small"), { GATELAB_PROGRESS_ALWAYS: "0", GATELAB_NO_PROGRESS: "0" }),
      analyze(join(dir, "quiet"), { GATELAB_PROGRESS_ALWAYS: "1", GATELAB_NO_PROGRESS: "0" }, [
        "--quiet",
      ]),
      analyze(join(dir, "off"), { GATELAB_PROGRESS_ALWAYS: "1", GATELAB_NO_PROGRESS: "1" }),
    ]);
    deepEqual([shown.code, small.code, quiet.code, off.code], [0, 0, 0, 0]);
    const phases = shown.lines.filter((l) => PROGRESS.test(l) && !/^(reading|validating) /.test(l));
    const fit = "fitting (steps)";
    const screen = "diagnostics and interaction screen (steps)";
    // Gate A: 7 metrics (9 fit steps: the factorisation, the coefficients, one per metric), 8
    // diagnostics steps (the screen's 7, the residuals), 98 coefficient rows, 400 task rows,
    // 14 selection rows; the Parquet files are encoded first (outputs), the CSVs written after
    // (a 64 KiB piece of tasks.csv holds 196 rows, the next 199).
    deepEqual(phases, [
      // 9 steps of 11%: each one passes a tenth, so each prints a line.
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `${fit} ${i}/9 (${Math.floor((100 * i) / 9)}%)`),
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `${screen} ${i}/8 (${Math.floor((100 * i) / 8)}%)`),
      "encoding coefficients.parquet (rows) 98/98 (100%)",
      "encoding tasks.parquet (rows) 400/400 (100%)",
      "encoding selection.parquet (rows) 14/14 (100%)",
      "writing coefficients.csv (rows) 98/98 (100%)",
      "writing tasks.csv (rows) 196/400 (49%)",
      "writing tasks.csv (rows) 395/400 (98%)",
      "writing tasks.csv (rows) 400/400 (100%)",
      "writing selection.csv (rows) 14/14 (100%)",
    ]);
    // The validation's lines come first, the dataset's rows counted in them, ending at 100%.
    const first = shown.lines.findIndex((l) => l.startsWith(fit));
    equal(shown.lines[first - 1], "validating (lines and rows) 2406/2406 (100%)");
    // Below the thresholds the reading and validating lines are absent (small files) and so
    // are the new phases; --quiet and GATELAB_NO_PROGRESS=1 print no progress at all.
    deepEqual(small.lines.filter((l) => PROGRESS.test(l)), []);
    deepEqual(quiet.lines.filter((l) => PROGRESS.test(l)), []);
    deepEqual(off.lines.filter((l) => PROGRESS.test(l)), []);
    // Progress is stderr only: the tidy tables are the same bytes with and without it (the
    // JSON and tables name their output directory and command line).
    const a = await files(join(dir, "shown")), b = await files(join(dir, "quiet"));
    for (const name of Object.keys(a).filter((n) => /\.(csv|parquet)$/.test(n))) {
      deepEqual(a[name], b[name], name);
    }
    ok(Object.keys(a).includes("tasks.parquet"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
