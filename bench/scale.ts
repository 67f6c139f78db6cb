/**
 * `deno task bench --scale`: gatelab against the peer (pandas + statsmodels +
 * vectorised numpy, bench/analyze_python.py) from N = 400 to 200,000 paired
 * rows, in one table.
 *
 * Gates come from an independent Python generator (bench/gen_scale.py) into
 * `.cache/bench-scale/` (not committed; generated once, reused): N = 400,
 * 4,000, 40,000 and 200,000 tasks with M = 16 columns, 10 pooled rounds of
 * 400 tasks on one bare run (4,000 rows), and an online gate with M = 40
 * (current chunks, ADD candidates and REWRITE families) at N = 4,000.
 *
 * For every case, `gate analyze` without and with the bootstrap runs as a
 * fresh process alternately with the peer doing the same work, `--repeats`
 * times; the table shows the best wall time of each side, the ratio, the
 * growth exponent between consecutive sizes (log t2/t1 over log N2/N1) and
 * the peak resident set size (GNU time's maximum RSS). Then the bootstrap
 * kernel alone at N = 400 and 40,000 against numpy's best vectorised form
 * (bench/bootstrap_numpy.py), with the OpenBLAS kernel numpy used named.
 *
 * The peer removes OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE from its
 * environment before numpy loads (`--unset-openblas-env`; they can pin a
 * slower kernel). Timings are never test
 * assertions. Usage:
 *   deno task bench --scale [--repeats 2] [--draws 10000] [--sizes 400,4000,pool10,online40,40000,200000]
 *
 * @module
 */
import { kernelMs, numpyKernelArgs } from "./_kernel.ts";
import { gateArgs } from "./_gate.ts";

const decoder = new TextDecoder();
const CACHE = ".cache/bench-scale";

interface Case {
  readonly name: string;
  readonly rows: number;
  readonly gen: string[];
  readonly gates: (dir: string) => string[];
}

const CASES: Record<string, Case> = {
  "400": single(400, 16),
  "4000": single(4000, 16),
  "pool10": {
    name: "4,000 (10 rounds x 400 tasks, one bare run)",
    rows: 4000,
    gen: ["--tasks", "400", "--columns", "16", "--rounds", "10"],
    gates: (dir) =>
      Array.from({ length: 10 }, (_, r) => `${dir}/round-${String(r + 1).padStart(2, "0")}`),
  },
  "online40": {
    name: "4,000 online, M = 40",
    rows: 4000,
    gen: ["--tasks", "4000", "--columns", "40", "--online"],
    gates: (dir) => [`${dir}/gate`],
  },
  "40000": single(40000, 16),
  "200000": single(200000, 16),
};

function single(n: number, m: number): Case {
  return {
    name: `${n.toLocaleString("en")}`,
    rows: n,
    gen: ["--tasks", String(n), "--columns", String(m)],
    gates: (dir) => [`${dir}/gate`],
  };
}

interface Timed {
  readonly s: number;
  readonly rssMb: number;
  readonly stdout: string;
}

/** Runs a command under GNU time; wall seconds and peak RSS. */
async function timed(cmd: string[]): Promise<Timed> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "GATELAB_TIME %e %M", ...cmd],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = decoder.decode(out.stderr);
  if (!out.success) {
    throw new Error(
      `Cannot run "${cmd.join(" ")}": ${decoder.decode(out.stdout).slice(-1000)}${
        err.slice(-2000)
      }`,
    );
  }
  const m = /GATELAB_TIME ([\d.]+) (\d+)/.exec(err);
  if (!m) throw new Error(`No timing from "${cmd.join(" ")}"`);
  return { s: Number(m[1]), rssMb: Number(m[2]) / 1024, stdout: decoder.decode(out.stdout) };
}

/** Whether anything is at `path` (the generated data sets are kept between runs). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs the scale benchmark and prints its table. */
export async function runScale(options: {
  readonly repeats: number;
  readonly draws: number;
  readonly sizes: readonly string[];
}): Promise<void> {
  const { repeats, draws, sizes } = options;
  const rows: string[][] = [];
  const growth: Record<string, { n: number; t: number }[]> = {};
  const tmp = await Deno.makeTempDir({ prefix: "gatelab-scale-" });
  for (const key of sizes) {
    const c = CASES[key];
    if (!c) throw new Error(`Unknown size "${key}"; known: ${Object.keys(CASES).join(", ")}`);
    const dir = `${CACHE}/${key}`;
    if (!(await exists(`${dir}/bare/traces.jsonl`))) {
      console.error(`generating ${dir} ...`);
      await timed(["python3", "bench/gen_scale.py", dir, ...c.gen]);
    }
    for (const b of [0, draws]) {
      const ours: Timed[] = [], peer: Timed[] = [];
      for (let r = 0; r < repeats; r++) {
        ours.push(
          await timed([
            "deno",
            ...gateArgs([
              "analyze",
              ...c.gates(dir),
              "--bootstrap",
              String(b),
              "--out",
              `${tmp}/${key}-${b}`,
              "--quiet",
            ]),
          ]),
        );
        peer.push(
          await timed([
            "python3",
            "bench/analyze_python.py",
            ...c.gates(dir),
            "--draws",
            String(b),
            "--unset-openblas-env",
          ]),
        );
      }
      const o = Math.min(...ours.map((t) => t.s)), p = Math.min(...peer.map((t) => t.s));
      const series = `${b}:${key === "pool10" || key === "online40" ? key : "single"}`;
      (growth[series] ??= []).push({ n: c.rows, t: o });
      const prev = growth[series]!.length > 1 ? growth[series]!.at(-2)! : null;
      const exponent = prev && prev.n !== c.rows
        ? (Math.log(o / prev.t) / Math.log(c.rows / prev.n)).toFixed(2)
        : "";
      rows.push([
        c.name,
        b === 0 ? "none" : String(b),
        o.toFixed(2),
        p.toFixed(2),
        (o / p).toFixed(2),
        exponent,
        Math.max(...ours.map((t) => t.rssMb)).toFixed(0),
        Math.max(...peer.map((t) => t.rssMb)).toFixed(0),
      ]);
      console.error(`  done ${c.name}, bootstrap ${b}: ${rows.at(-1)!.join(" | ")}`);
    }
  }
  await Deno.remove(tmp, { recursive: true });

  const kernelRows: string[][] = [];
  let blas: Record<string, unknown> = {};
  let unset: string[] = [];
  for (const n of [400, 40000]) {
    const ts: number[] = [];
    for (let r = 0; r < repeats; r++) ts.push(kernelMs(n, 16, draws) / 1000);
    const py = JSON.parse(
      (await timed(["python3", ...numpyKernelArgs(n, draws, repeats)])).stdout,
    );
    blas = py.blas ?? {};
    unset = py.unset_env ?? [];
    const o = Math.min(...ts), p = py.best_ms / 1000;
    kernelRows.push([n.toLocaleString("en"), o.toFixed(2), p.toFixed(2), (o / p).toFixed(2)]);
  }

  const table = (head: string[], body: string[][]) => {
    const lines = [head, head.map(() => "---"), ...body];
    return lines.map((r) => `| ${r.join(" | ")} |`).join("\n");
  };
  console.log(
    `gatelab bench --scale: best of ${repeats} alternating runs, ${navigator.hardwareConcurrency} cores, ` +
      `${draws} draws; peer = pandas + statsmodels + vectorised numpy (bench/analyze_python.py)`,
  );
  console.log("");
  console.log(table([
    "paired rows (M = 16 unless said)",
    "bootstrap",
    "gatelab s",
    "peer s",
    "ratio",
    "growth exponent (gatelab)",
    "gatelab peak RSS MB",
    "peer peak RSS MB",
  ], rows));
  console.log("");
  console.log(`bootstrap kernel alone (M = 16, 1 metric, ${draws} draws, resampling included):`);
  console.log(table(["tasks", "gatelab s (1 thread)", "numpy s", "ratio"], kernelRows));
  const info = blas as { name?: string; version?: string; openblas_core?: string; source?: string };
  const fromPool = Array.isArray((blas as { info?: unknown[] }).info)
    ? ((blas as {
      info: {
        internal_api?: string;
        version?: string;
        architecture?: string;
        num_threads?: number;
      }[];
    })
      .info.map((l) =>
        `${l.internal_api} ${l.version} ${l.architecture} (${l.num_threads} threads)`
      ).join("; "))
    : `${info.name ?? "?"} ${info.version ?? ""}, kernel ${info.openblas_core ?? "?"}`;
  console.log(
    `numpy BLAS: ${fromPool} (via ${info.source ?? "threadpoolctl"}); unset for the peer: ${
      unset.join(", ") || "nothing (not set)"
    }`,
  );
}
