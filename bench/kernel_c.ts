/**
 * `deno task bench --kernel-c`: gatelab's bootstrap kernel against a
 * hand-written C kernel (bench/kernel_c.c: the same stream and draw order,
 * 16 draws in SIMD lanes, one thread), compiled with `gcc -O3 -march=native`
 * into .cache/kernel-c/. Same input for both (bench/_kernel.ts: N tasks of
 * one row, M = 16 columns, 1 or 7 metrics, seed 2). Per size: one untimed
 * run of each, then `repeats` runs alternating gatelab and C; medians. Each
 * C process times its own work (lists, jump tables, draws), as gatelab's
 * time includes its per-task sums; process start and file I/O are outside.
 * Every timed C run's coefficients and statuses are compared with
 * gatelab's for the same draws: statuses equal, and each coefficient
 * within 1e-9 of gatelab's relative to the largest |coefficient| of its
 * draw and metric (the largest such difference is printed; otherwise the
 * bench fails). Then the same check on two designs whose draws are often
 * degenerate (an absent column, a singular X'WX), untimed.
 *
 * @module
 */
import { type KernelInput, kernelInput, kernelRun } from "./_kernel.ts";
import { createPrng } from "../lib/math/prng.ts";

const DIR = ".cache/kernel-c";
const BIN = `${DIR}/kernel_c`;
const decoder = new TextDecoder();

/**
 * Compiles bench/kernel_c.c (gcc writes the binary itself: Deno refuses writes to a path its
 * --allow-run names); false (with a line saying why) if gcc is missing or the CPU has no AVX-512. */
async function compile(): Promise<boolean> {
  await Deno.mkdir(DIR, { recursive: true });
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("gcc", {
      args: ["-O3", "-march=native", "-o", BIN, "bench/kernel_c.c", "-lm"],
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      console.log("kernel-c: skipped, gcc is not on PATH");
      return false;
    }
    throw error;
  }
  if (!out.success) {
    const stderr = decoder.decode(out.stderr);
    if (stderr.includes("needs AVX-512")) {
      console.log("kernel-c: skipped, the C kernel needs a CPU with AVX-512 (F, BW, DQ)");
      return false;
    }
    throw new Error(`Cannot compile bench/kernel_c.c: ${stderr}`);
  }
  return true;
}

/** The input file of bench/kernel_c.c (its header comment gives the layout). */
function inputBytes(input: KernelInput, draws: number): Uint8Array {
  const { n, k, design, responses } = input;
  const metrics = responses.length;
  const y = new Float64Array(n * metrics);
  for (let i = 0; i < n; i++) {
    for (let mm = 0; mm < metrics; mm++) y[i * metrics + mm] = responses[mm]![i]!;
  }
  const head = Int32Array.of(n, k, metrics, draws, 2);
  const bytes = new Uint8Array(20 + design.length + y.byteLength);
  bytes.set(new Uint8Array(head.buffer), 0);
  bytes.set(design, 20);
  bytes.set(new Uint8Array(y.buffer), 20 + design.length);
  return bytes;
}

/**
 * A design whose draws are often degenerate: column 14 is 1 in three tasks only (absent from
 * some draws), column 15 equals column 13 but in task 7 (singular unless task 7 is drawn).
 */
function degenerateInput(n: number, metrics: number): KernelInput {
  const k = 16, prng = createPrng(5);
  const design = new Uint8Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 14; j++) design[i * k + j] = prng.nextFloat() < 0.5 ? 1 : 0;
    design[i * k + 14] = i < 3 ? 1 : 0;
    design[i * k + 15] = i === 7 ? 1 - design[i * k + 13]! : design[i * k + 13]!;
  }
  const responses = Array.from(
    { length: metrics },
    () => Float64Array.from({ length: n }, () => prng.nextFloat()),
  );
  return { n, k, design, responses };
}

/** The one-lane paths: C against gatelab on degenerate designs (statuses and coefficients). */
async function degenerateCheck(sizes: number[]): Promise<string> {
  const parts: string[] = [];
  for (const n of sizes) {
    const input = degenerateInput(n, 3), draws = 2000;
    const file = `${DIR}/degenerate-n${n}.bin`, output = `${DIR}/out.bin`;
    await Deno.writeFile(file, inputBytes(input, draws));
    const { result } = kernelRun(input, draws);
    await runC(file, output);
    const worst = compare(await Deno.readFile(output), result.coefficients, result.status, 16);
    if (!(worst <= 1e-9)) throw new Error(`kernel-c: degenerate draws differ by ${worst}`);
    const tally = [0, 0, 0];
    for (const st of result.status) tally[st]!++;
    parts.push(
      `N=${n}: ok/absent/singular ${tally.join("/")}, largest difference ${worst.toExponential(1)}`,
    );
  }
  return `degenerate draws (${parts.length} designs, 2000 draws, 3 metrics), statuses equal: ${
    parts.join("; ")
  }`;
}

async function runC(input: string, output: string): Promise<{ ms: number; redrawn: number }> {
  const out = await new Deno.Command(BIN, {
    args: [input, output],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) throw new Error(`Cannot run ${BIN}: ${decoder.decode(out.stderr)}`);
  return JSON.parse(decoder.decode(out.stdout));
}

/**
 * Largest difference of C's coefficients from gatelab's, relative to the largest |coefficient|
 * of the same draw and metric; throws on a status or NaN mismatch.
 */
function compare(bytes: Uint8Array, gate: Float64Array, status: Uint8Array, k: number): number {
  const coef = new Float64Array(bytes.slice(0, gate.length * 8).buffer);
  const cStatus = bytes.subarray(gate.length * 8);
  if (cStatus.length !== status.length) throw new Error("kernel-c: output length differs");
  for (let d = 0; d < status.length; d++) {
    if (cStatus[d] !== status[d]) {
      throw new Error(`kernel-c: draw ${d} status ${cStatus[d]}, gatelab ${status[d]}`);
    }
  }
  let worst = 0;
  for (let v = 0; v < gate.length; v += k) {
    let scale = 0, diff = 0;
    for (let i = v; i < v + k; i++) {
      const a = gate[i]!, b = coef[i]!;
      if (Number.isNaN(a) || Number.isNaN(b)) {
        if (Number.isNaN(a) !== Number.isNaN(b)) throw new Error(`kernel-c: NaN differs at ${i}`);
        continue;
      }
      scale = Math.max(scale, Math.abs(a));
      diff = Math.max(diff, Math.abs(a - b));
    }
    if (scale > 0) worst = Math.max(worst, diff / scale);
  }
  return worst;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs the comparison and prints its table. */
export async function runKernelC(
  options: { repeats: number; draws: number; sizes: number[]; metrics: number[] },
): Promise<void> {
  if (!(await compile())) return;
  const { repeats, draws } = options;
  const k = 16;
  const rows: string[] = [];
  for (const n of options.sizes) {
    for (const metrics of options.metrics) {
      const input = `${DIR}/input-n${n}-m${metrics}-d${draws}.bin`;
      const inp = kernelInput(n, k, metrics);
      await Deno.writeFile(input, inputBytes(inp, draws));
      kernelRun(inp, draws); // untimed: V8 and the WebAssembly module warm
      await runC(input, "-");
      const ts: number[] = [], cs: number[] = [];
      let worst = 0, redrawn = 0;
      for (let r = 0; r < repeats; r++) {
        const { ms, result } = kernelRun(inp, draws);
        ts.push(ms);
        const output = `${DIR}/out.bin`;
        const c = await runC(input, output);
        cs.push(c.ms);
        redrawn = c.redrawn;
        worst = Math.max(
          worst,
          compare(await Deno.readFile(output), result.coefficients, result.status, k),
        );
      }
      if (!(worst <= 1e-9)) throw new Error(`kernel-c: coefficients differ by ${worst} (relative)`);
      const t = median(ts), c = median(cs);
      rows.push(
        `| ${String(n).padStart(5)} | ${metrics} | ${(t / 1000).toFixed(3)} | ${
          (c / 1000).toFixed(3)
        } | ${(t / c).toFixed(2)} | ${worst.toExponential(1)} | ${redrawn} |`,
      );
      console.error(
        `  N=${n} metrics=${metrics}: gatelab ${ts.map((x) => x.toFixed(0))} ms, C ${
          cs.map((x) => x.toFixed(0))
        } ms`,
      );
    }
  }
  console.log(
    `bootstrap kernel, M = ${k}, ${draws} draws, one thread, medians of ${repeats} (${navigator.hardwareConcurrency} cores)`,
  );
  console.log("");
  console.log(
    "| N | metrics | gatelab s | C 16-lane s | gatelab / C | max rel. diff | C blocks redrawn |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
  console.log("");
  console.log("goal: gatelab / C <= 1.15 (issue 34)");
  console.log(await degenerateCheck(options.sizes));
}
