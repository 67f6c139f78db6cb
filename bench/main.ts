/**
 * `deno task bench`: side-by-side timings of gatelab against Python in one run.
 *
 * 1. The 10,000-draw task bootstrap kernel (N = 400 tasks, M = 16 columns,
 *    one metric, resampling included) against numpy's best vectorised form
 *    (bench/bootstrap_numpy.py: count matrix times per-row outer products,
 *    batched solve). Best of `--repeats` in-process runs on each side.
 * 2. `gate analyze` with a 10,000-draw bootstrap on the 400-task demo gate
 *    (data/demo/ckpt-a/gate-a) as a fresh process, against
 *    bench/analyze_python.py (pandas + statsmodels + numpy doing the same
 *    work) as a fresh process. Best wall time of `--repeats` runs each.
 *
 * The Python side runs with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed
 * (some environments pin a slower kernel through them); the
 * OpenBLAS kernel numpy actually used is printed. Timings are never test
 * assertions. Usage: deno task bench [--repeats 3] [--draws 10000] [--gate <dir>]
 *
 * `deno task bench --scale` runs the scale benchmark instead (bench/scale.ts),
 * `deno task bench --import [--rows 200000]` the import benchmark (bench/import.ts),
 * `deno task bench --sql` the SQL start-up benchmark (bench/sql.ts),
 * `deno task bench --build` the study build benchmark (bench/build.ts),
 * `deno task bench --stages` the time of each stage of `gate analyze` (bench/stages.ts),
 * `deno task bench --kernel-c [--repeats 3] [--draws 10000]` gatelab's bootstrap kernel against a
 * hand-written 16-lane C kernel (bench/kernel_c.ts; needs gcc) at N = 400 and 4,000, 1 and 7 metrics.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { kernelMs, numpyKernelArgs } from "./_kernel.ts";
import { gateArgs } from "./_gate.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    repeats: { type: "string", default: "3" },
    draws: { type: "string", default: "10000" },
    gate: { type: "string", default: "data/demo/ckpt-a/gate-a" },
    scale: { type: "boolean", default: false },
    import: { type: "boolean", default: false },
    rows: { type: "string", default: "200000" },
    sql: { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    stages: { type: "boolean", default: false },
    "kernel-c": { type: "boolean", default: false },
    sizes: { type: "string", default: "400,4000,pool10,online40,40000,200000" },
  },
});
if (values.import) {
  const { runImport } = await import("./import.ts");
  await runImport({ rows: Number(values.rows), repeats: Number(values.repeats) });
  Deno.exit(0);
}
if (values.build) {
  const { runBuildBench } = await import("./build.ts");
  await runBuildBench({
    repeats: Number(
      values.repeats === "3" && !Deno.args.includes("--repeats") ? 1 : values.repeats,
    ),
  });
  Deno.exit(0);
}
if (values.sql) {
  const { runSql } = await import("./sql.ts");
  await runSql({
    repeats: Number(
      values.repeats === "3" && !Deno.args.includes("--repeats") ? 1 : values.repeats,
    ),
  });
  Deno.exit(0);
}
if (values["kernel-c"]) {
  const { runKernelC } = await import("./kernel_c.ts");
  await runKernelC({
    repeats: Number(values.repeats),
    draws: Number(values.draws),
    sizes: [400, 4000],
    metrics: [1, 7],
  });
  Deno.exit(0);
}
if (values.stages) {
  const { runStages } = await import("./stages.ts");
  await runStages({
    repeats: Number(values.repeats),
    draws: Number(values.draws),
    rows: (Deno.args.includes("--rows") ? values.rows! : "40000,200000").split(",").map(Number),
  });
  Deno.exit(0);
}
if (values.scale) {
  const { runScale } = await import("./scale.ts");
  await runScale({
    repeats: Number(values.repeats),
    draws: Number(values.draws),
    sizes: values.sizes!.split(","),
  });
  Deno.exit(0);
}
const repeats = Number(values.repeats), draws = Number(values.draws);
const decoder = new TextDecoder();

async function runProcess(cmd: string, args: string[]): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - t0;
  if (!out.success) {
    throw new Error(
      `Cannot run benchmark step "${cmd} ${args.join(" ")}": ${decoder.decode(out.stderr)}`,
    );
  }
  return { ms, stdout: decoder.decode(out.stdout) };
}

const fmt = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`;

// 1. Kernel.
const tsKernel: number[] = [];
for (let r = 0; r < repeats; r++) tsKernel.push(kernelMs(400, 16, draws));
const numpy = JSON.parse(
  (await runProcess("python3", numpyKernelArgs(400, draws, repeats))).stdout,
);
const tsBest = Math.min(...tsKernel);

// 2. End to end.
const outDir = await Deno.makeTempDir({ prefix: "gatelab-bench-" });
const denoWall: number[] = [], pyWall: number[] = [];
let pyLast: { work_ms: number; imports_ms: number } | null = null;
for (let r = 0; r < repeats; r++) {
  denoWall.push(
    (await runProcess(
      "deno",
      gateArgs([
        "analyze",
        values.gate!,
        "--bootstrap",
        String(draws),
        "--out",
        `${outDir}/run${r}`,
        "--quiet",
      ]),
    )).ms,
  );
  const py = await runProcess("python3", [
    "bench/analyze_python.py",
    values.gate!,
    "--draws",
    String(draws),
    "--unset-openblas-env",
  ]);
  pyWall.push(py.ms);
  pyLast = JSON.parse(py.stdout);
}
await Deno.remove(outDir, { recursive: true });
const denoBest = Math.min(...denoWall), pyBest = Math.min(...pyWall);

const blas = numpy.blas ?? {};
console.log(`gatelab bench (best of ${repeats}; ${navigator.hardwareConcurrency} cores)`);
console.log("");
console.log(`1. task bootstrap kernel, N=400, M=16, ${draws} draws, resampling included`);
console.log(
  `   gatelab (TypeScript, 1 thread)  ${fmt(tsBest)}   runs: ${
    tsKernel.map((t) => t.toFixed(0)).join(", ")
  }`,
);
console.log(
  `   numpy (vectorised)              ${fmt(numpy.best_ms)}   (of which solve-only ${
    numpy.best_ms_without_resampling.toFixed(0)
  } ms)`,
);
console.log(
  `   ratio gatelab / numpy           ${(tsBest / numpy.best_ms).toFixed(2)}   goal <= 1`,
);
console.log(
  `   numpy ${numpy.numpy}, BLAS ${blas.name ?? "?"} ${blas.version ?? ""}, OpenBLAS kernel ${
    blas.openblas_core ?? "?"
  }` +
    ` (via ${blas.source}); unset for Python: ${numpy.unset_env.join(", ") || "nothing (not set)"}`,
);
console.log("");
console.log(
  `2. gate analyze + ${draws}-draw bootstrap on ${values.gate} (fresh process, wall time)`,
);
console.log(
  `   gatelab (deno, lib/cli/main.ts) ${fmt(denoBest)}   runs: ${
    denoWall.map((t) => t.toFixed(0)).join(", ")
  }`,
);
console.log(
  `   pandas + statsmodels + numpy    ${fmt(pyBest)}   runs: ${
    pyWall.map((t) => t.toFixed(0)).join(", ")
  }`,
);
if (pyLast) {
  console.log(
    `     (python imports ${pyLast.imports_ms.toFixed(0)} ms, work after imports ${
      pyLast.work_ms.toFixed(0)
    } ms in the last run)`,
  );
}
console.log(`   ratio gatelab / python          ${(denoBest / pyBest).toFixed(2)}   goal <= 0.5`);
console.log("   (gate analyze never starts DuckDB; the CLI imports command modules lazily)");
