/**
 * `deno task bench --stages`: where the time of one `gate analyze` goes, by
 * stage (`--timings`), at the sizes of the scale benchmark (bench/gen_scale.py
 * gates in `.cache/bench-scale/n<N>`, generated once). Each size runs
 * `--repeats` times as a fresh process under GNU time; the table shows each
 * stage's median over the runs, the median wall time and the median peak RSS.
 * Timings are never test assertions. Usage:
 *   deno task bench --stages [--repeats 3] [--draws 10000] [--rows 40000,200000]
 *
 * @module
 */
import { gateArgs } from "./_gate.ts";
import { exists } from "./scale.ts";

const decoder = new TextDecoder();
const CACHE = ".cache/bench-scale";

/** One run: seconds per stage, wall seconds and peak RSS (MB). */
interface Run {
  readonly stages: Map<string, number>;
  readonly wall: number;
  readonly rssMb: number;
}

async function run(gate: string, out: string, draws: number): Promise<Run> {
  const args = ["analyze", gate, "--out", out, "--bootstrap", String(draws), "--quiet"];
  const result = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "GATELAB_TIME %e %M", "deno", ...gateArgs([...args, "--timings"])],
    stdout: "piped",
    stderr: "piped",
    env: { GATELAB_NO_PROGRESS: "1" },
  }).output();
  const err = decoder.decode(result.stderr);
  if (!result.success) throw new Error(`gate ${args.join(" ")} failed: ${err.slice(-2000)}`);
  const stages = new Map<string, number>();
  for (const m of err.matchAll(/^timing {2}(.+?) +([\d.]+) s$/gm)) stages.set(m[1]!, Number(m[2]));
  const t = /GATELAB_TIME ([\d.]+) (\d+)/.exec(err);
  if (!t) throw new Error("no GNU time line");
  return { stages, wall: Number(t[1]), rssMb: Number(t[2]) / 1024 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Runs the stage benchmark and prints its Markdown table. */
export async function runStages(options: {
  readonly repeats: number;
  readonly draws: number;
  readonly rows: readonly number[];
}): Promise<void> {
  const columns: { rows: number; runs: Run[] }[] = [];
  for (const rows of options.rows) {
    const dir = `${CACHE}/n${rows}`;
    if (!(await exists(`${dir}/gate/gate.json`))) {
      const gen = await new Deno.Command("python3", {
        args: ["bench/gen_scale.py", dir, "--tasks", String(rows), "--columns", "16"],
      }).output();
      if (!gen.success) throw new Error(decoder.decode(gen.stderr));
    }
    const out = await Deno.makeTempDir({ prefix: "gatelab-stages-" });
    const runs: Run[] = [];
    try {
      for (let r = 0; r < options.repeats; r++) {
        runs.push(await run(`${dir}/gate`, `${out}/out`, options.draws));
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
    columns.push({ rows, runs });
  }
  const names: string[] = [];
  for (const c of columns) {
    for (const r of c.runs) for (const s of r.stages.keys()) if (!names.includes(s)) names.push(s);
  }
  const fmt = (x: number) => x.toFixed(2);
  const head = columns.map((c) => `${c.rows.toLocaleString("en")} rows`);
  console.log(
    `gate analyze --bootstrap ${options.draws} --timings, M = 16, seven metrics; median of ` +
      `${options.repeats} run(s), seconds`,
  );
  console.log(`| stage | ${head.join(" | ")} |`);
  console.log(`| --- | ${head.map(() => "---:").join(" | ")} |`);
  for (const name of names) {
    const cells = columns.map((c) => fmt(median(c.runs.map((r) => r.stages.get(name) ?? 0))));
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
  console.log(
    `| wall (GNU time) | ${
      columns.map((c) => fmt(median(c.runs.map((r) => r.wall)))).join(" | ")
    } |`,
  );
  console.log(
    `| peak RSS, MB | ${
      columns.map((c) => median(c.runs.map((r) => r.rssMb)).toFixed(0)).join(" | ")
    } |`,
  );
}
