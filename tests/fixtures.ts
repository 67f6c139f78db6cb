/**
 * Test fixtures: writes small, valid evaluator runs and gate directories
 * (docs/FORMAT.md sections 1 and 2) from a known linear model, plus helpers
 * that mutate single lines or fields to trigger one validation code.
 *
 * The model of a gate fixture, per episode i (task t, sample s):
 *
 *     bare_i   = base_t + e_bare_i
 *     masked_i = base_t + sum_j C_ij effect_j + e_masked_i
 *
 * with base_t ~ U(0.2, 0.6) drawn from `worldSeed`, noise N(0, noise^2)
 * (Box-Muller over createPrng), and masks C drawn from `seed`: each slot is
 * present with probability `pPresent`, then one of its versions uniformly.
 * Values are not clamped, so the paired-delta OLS model holds exactly.
 * `reward == rewards.r_strict`; every other component `r_x` equals
 * `0.5 * reward + 0.1` (bare and masked alike), so its deltas are half the
 * reward deltas.
 *
 * @example
 * ```ts
 * import { writeGateFixture } from "./fixtures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const fx = await writeGateFixture(dir, { tasks: 8, slots: [{ slot_id: "a", versions: [{ version_id: "a1", role: "add" }] }] });
 * deepEqual(fx.rows.length, 8); // fx.gateDir and fx.bareDir hold a valid gate and its bare run
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
import { emptyDirSession } from "./empty_dir_main.ts";
import { join, relative } from "node:path";
import { createPrng, type Prng } from "../lib/math/prng.ts";

/** Role of a version (docs/FORMAT.md section 2). */
export type FixtureRole = "current" | "add" | "old" | "new";

/** A slot of the fixture's gate plan; chunk_id defaults to `chunk-<version_id>`. */
export interface FixtureSlot {
  readonly slot_id: string;
  readonly versions: readonly {
    readonly version_id: string;
    readonly role: FixtureRole;
    readonly chunk_id?: string;
  }[];
}

/** Options of {@linkcode writeRunFixture} and {@linkcode writeGateFixture}. */
export interface FixtureOptions {
  /** Number of planned tasks, ids `t000`, `t001`, ... @default {20} */
  readonly tasks?: number;
  /** Planned samples per task. @default {1} */
  readonly repeats?: number;
  /** @default {"val"} */
  readonly split?: string;
  /** Slots of the gate. @default {addSlots(4)} */
  readonly slots?: readonly FixtureSlot[];
  /** True effect of each version on reward; versions not listed have 0. @default {{}} */
  readonly effects?: Readonly<Record<string, number>>;
  /** Standard deviation of the per-rollout noise. @default {0.05} */
  readonly noise?: number;
  /** Seed of task difficulties and bare noise (shared by gates over one bare run). @default {7} */
  readonly worldSeed?: number;
  /** Seed of masks and masked noise; also written as gate.json mask_seed. @default {1} */
  readonly seed?: number;
  /** Per-slot presence probability. @default {0.5} */
  readonly pPresent?: number;
  /** @default {true} */
  readonly sendSeed?: boolean;
  /** @default {2} */
  readonly budgetK?: number;
  /** @default {"cold_start"} */
  readonly stage?: "cold_start" | "online";
  /** Reward components in manifest order; must include r_strict. @default {["r_strict", "r_success"]} */
  readonly components?: readonly string[];
  /**
   * Episode indexes (row order: task-major, then sample) whose masked run
   * first has a failed attempt, then the completed one. @default {[]}
   */
  readonly failedFirst?: readonly number[];
  /** Name of the bare run folder under `dir`. @default {"bare-val"} */
  readonly bareName?: string;
  /** Name of the gate folder under `dir`. @default {"gate"} */
  readonly gateName?: string;
  /** Use this existing bare run instead of writing one (must come from the same worldSeed/tasks). */
  readonly existingBareDir?: string;
  /** @default {"gate-fixture"} */
  readonly gateId?: string;
}

/** What {@linkcode writeGateFixture} wrote, with the generating truth. */
export interface GateFixture {
  readonly bareDir: string;
  readonly gateDir: string;
  /** Planned task ids. */
  readonly tasks: readonly string[];
  /** Version ids in gate.json order (the design columns). */
  readonly columns: readonly string[];
  /** Per episode (task-major): present versions, and bare/masked reward. */
  readonly rows: readonly {
    readonly task_id: string;
    readonly sample_id: number;
    readonly present: readonly string[];
    readonly bare: number;
    readonly masked: number;
  }[];
}

/** `count` plain ADD slots `s1..sN` with versions `c1..cN`. */
export function addSlots(count: number): FixtureSlot[] {
  return Array.from({ length: count }, (_, i) => ({
    slot_id: `s${i + 1}`,
    versions: [{ version_id: `c${i + 1}`, role: "add" as const }],
  }));
}

function gaussian(prng: Prng): number {
  const u = 1 - prng.nextFloat();
  const v = prng.nextFloat();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function taskIds(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `t${String(i).padStart(3, "0")}`);
}

/** The manifest a fixture run gets; exported so tests can build variants. */
export function fixtureManifest(
  arm: "bare" | "masked" | "equipped",
  options: FixtureOptions & { runId?: string; selected?: readonly string[] } = {},
): Record<string, unknown> {
  return {
    format: "gatelab.run/v1",
    run_id: options.runId ?? `fixture-${arm}`,
    arm,
    split: options.split ?? "val",
    repeats: options.repeats ?? 1,
    tasks: taskIds(options.tasks ?? 20),
    provenance: {
      checkpoint_id: "ckpt-fixture",
      model: "fixture-model",
      endpoint: "http://localhost:8000/v1",
      sampling: { temperature: 0.7, top_p: 0.95, max_tokens: 1024 },
      send_seed: options.sendSeed ?? true,
      base_prompt_sha256: "b".repeat(64),
      environment: { name: "shopsim", version: "1.0.0", config_sha256: "e".repeat(64) },
      runtime: { protocol: "react-v1", max_steps: 15 },
      reward: {
        version: "webshop-v1",
        components: [...(options.components ?? ["r_strict", "r_success"])],
      },
    },
    skill: arm === "bare"
      ? { bank: "NoSkills", selected_skills: [], max_skills: null }
      : { bank: "fixture-bank", selected_skills: [...(options.selected ?? [])], max_skills: null },
  };
}

function rewardsOf(reward: number, components: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of components) out[c] = c === "r_strict" ? reward : 0.5 * reward + 0.1;
  return out;
}

function traceLine(
  split: string,
  task_id: string,
  sample_id: number,
  attempt: number,
  reward: number | null,
  components: readonly string[],
  injected: readonly string[],
  job_seed: number,
): Record<string, unknown> {
  return {
    split,
    task_id,
    sample_id,
    attempt,
    status: reward === null ? "failed" : "completed",
    reward,
    rewards: reward === null ? {} : rewardsOf(reward, components),
    success: reward === null ? null : reward > 0.5,
    injected: [...injected],
    job_seed,
    steps: 5,
    tokens: { prompt: 1000, completion: 100 },
    error: reward === null ? "endpoint timeout" : null,
  };
}

function jsonl(lines: readonly unknown[]): string {
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function bareRewards(options: FixtureOptions): { base: number[]; bare: number[] } {
  const tasks = options.tasks ?? 20, repeats = options.repeats ?? 1, noise = options.noise ?? 0.05;
  const world = createPrng(options.worldSeed ?? 7);
  const base = Array.from({ length: tasks }, () => 0.2 + 0.4 * world.nextFloat());
  const bare: number[] = [];
  for (let t = 0; t < tasks; t++) {
    for (let s = 0; s < repeats; s++) bare.push(base[t]! + noise * gaussian(world));
  }
  return { base, bare };
}

/**
 * Writes a valid evaluator run (manifest.json + traces.jsonl) whose rewards
 * follow the fixture model with every listed `present` version injected in
 * every episode: bare when `present` is empty. Useful for Gate B pairs.
 *
 * @param dir Run directory (created).
 * @param options Fixture options plus arm, run id and the always-present versions.
 * @returns The per-episode rewards written, task-major.
 */
export async function writeRunFixture(
  dir: string,
  options: FixtureOptions & {
    readonly arm?: "bare" | "masked" | "equipped";
    readonly runId?: string;
    readonly present?: readonly string[];
    /** Seed of this run's noise when it is not bare. @default {seed} */
    readonly runSeed?: number;
  } = {},
): Promise<number[]> {
  const arm = options.arm ?? "bare";
  const present = options.present ?? [];
  const split = options.split ?? "val", repeats = options.repeats ?? 1;
  const components = options.components ?? ["r_strict", "r_success"];
  const tasks = taskIds(options.tasks ?? 20);
  const { base, bare } = bareRewards(options);
  const prng = createPrng(options.runSeed ?? options.seed ?? 1);
  const effect = present.reduce((a, v) => a + (options.effects?.[v] ?? 0), 0);
  const values = arm === "bare"
    ? bare
    : bare.map((_, i) =>
      base[Math.floor(i / repeats)]! + effect + (options.noise ?? 0.05) * gaussian(prng)
    );
  const lines = values.map((r, i) =>
    traceLine(
      split,
      tasks[Math.floor(i / repeats)]!,
      i % repeats,
      0,
      r,
      components,
      present,
      1000 + i,
    )
  );
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify(fixtureManifest(arm, { ...options, selected: present }), null, 2) + "\n",
  );
  await Deno.writeTextFile(join(dir, "traces.jsonl"), jsonl(lines));
  return values;
}

/**
 * Writes a valid bare run and a gate directory over it under `dir`
 * (`<dir>/<bareName>`, `<dir>/<gateName>` with `bare_run_dir` "../<bareName>").
 *
 * @param dir Parent directory (created).
 * @param options Fixture options.
 * @returns Paths and the generating truth.
 */
export async function writeGateFixture(
  dir: string,
  options: FixtureOptions = {},
): Promise<GateFixture> {
  const split = options.split ?? "val", repeats = options.repeats ?? 1;
  const components = options.components ?? ["r_strict", "r_success"];
  const slots = options.slots ?? addSlots(4);
  const tasks = taskIds(options.tasks ?? 20);
  const noise = options.noise ?? 0.05;
  const pPresent = options.pPresent ?? 0.5;
  const bareDir = options.existingBareDir ?? join(dir, options.bareName ?? "bare-val");
  const gateDir = join(dir, options.gateName ?? "gate");
  const { base, bare } = bareRewards(options);
  if (options.existingBareDir === undefined) {
    await writeRunFixture(bareDir, { ...options, arm: "bare" });
  }

  const prng = createPrng(options.seed ?? 1);
  const failedFirst = new Set(options.failedFirst ?? []);
  const rows: GateFixture["rows"][number][] = [];
  const assignments: unknown[] = [];
  const traces: unknown[] = [];
  for (let i = 0; i < tasks.length * repeats; i++) {
    const task_id = tasks[Math.floor(i / repeats)]!, sample_id = i % repeats;
    const mask: Record<string, string | null> = {};
    const present: string[] = [];
    for (const slot of slots) {
      let chosen: string | null = null;
      if (prng.nextFloat() < pPresent) {
        chosen = slot.versions[prng.nextInt(slot.versions.length)]!.version_id;
        present.push(chosen);
      }
      mask[slot.slot_id] = chosen;
    }
    const masked = base[Math.floor(i / repeats)]! +
      present.reduce((a, v) => a + (options.effects?.[v] ?? 0), 0) + noise * gaussian(prng);
    rows.push({ task_id, sample_id, present, bare: bare[i]!, masked });
    assignments.push({ split, task_id, sample_id, slots: mask });
    if (failedFirst.has(i)) {
      traces.push(traceLine(split, task_id, sample_id, 0, null, components, present, 1000 + i));
    }
    traces.push(
      traceLine(
        split,
        task_id,
        sample_id,
        failedFirst.has(i) ? 1 : 0,
        masked,
        components,
        present,
        1000 + i,
      ),
    );
  }
  const rel = options.existingBareDir === undefined
    ? `../${options.bareName ?? "bare-val"}`
    : relativePath(gateDir, options.existingBareDir);
  const gate = {
    format: "gatelab.gate/v1",
    gate_id: options.gateId ?? "gate-fixture",
    stage: options.stage ?? "cold_start",
    bare_run_dir: rel,
    estimator: "paired_delta_ols_no_intercept",
    mask_seed: options.seed ?? 1,
    p_present: pPresent,
    budget_k: options.budgetK ?? 2,
    slots: slots.map((s) => ({
      slot_id: s.slot_id,
      versions: s.versions.map((v) => ({
        version_id: v.version_id,
        chunk_id: v.chunk_id ?? `chunk-${v.version_id}`,
        role: v.role,
      })),
    })),
  };
  await Deno.mkdir(gateDir, { recursive: true });
  await Deno.writeTextFile(join(gateDir, "gate.json"), JSON.stringify(gate, null, 2) + "\n");
  await Deno.writeTextFile(join(gateDir, "assignments.jsonl"), jsonl(assignments));
  await Deno.writeTextFile(
    join(gateDir, "manifest.json"),
    JSON.stringify(
      fixtureManifest("masked", {
        ...options,
        runId: `fixture-masked-${options.gateId ?? "gate-fixture"}`,
      }),
      null,
      2,
    ) + "\n",
  );
  await Deno.writeTextFile(join(gateDir, "traces.jsonl"), jsonl(traces));
  return {
    bareDir,
    gateDir,
    tasks,
    columns: slots.flatMap((s) => s.versions.map((v) => v.version_id)),
    rows,
  };
}

function relativePath(fromDir: string, to: string): string {
  // Both absolute or both relative to the same cwd; node:path handles it.
  return relative(fromDir, to);
}

/**
 * Rewrites a JSONL file line by line. `edit` gets each parsed object (blank
 * lines are kept as they are) and its one-based line number, and returns
 * the new object, a raw string to write verbatim (e.g. broken JSON), or
 * `null` to drop the line. Return the same object to keep it.
 *
 * @param path JSONL file.
 * @param edit Per-line edit.
 */
export async function mutateJsonl(
  path: string,
  // deno-lint-ignore no-explicit-any
  edit: (obj: any, line: number) => unknown | string | null,
): Promise<void> {
  const lines = (await Deno.readTextFile(path)).split("\n");
  const out: string[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === "") {
      if (i < lines.length - 1) out.push(text);
      return;
    }
    const result = edit(JSON.parse(text), i + 1);
    if (result === null) return;
    out.push(typeof result === "string" ? result : JSON.stringify(result));
  });
  await Deno.writeTextFile(path, out.join("\n") + "\n");
}

/**
 * Rewrites a JSON file: `edit` may mutate the parsed object in place or
 * return a replacement.
 */
export async function mutateJson(
  path: string,
  // deno-lint-ignore no-explicit-any
  edit: (obj: any) => unknown | void,
): Promise<void> {
  const obj = JSON.parse(await Deno.readTextFile(path));
  const result = edit(obj);
  await Deno.writeTextFile(
    path,
    JSON.stringify(result === undefined ? obj : result, null, 2) + "\n",
  );
}

/** Appends raw lines to a file (each gets a trailing newline). */
export async function appendLines(path: string, ...lines: readonly unknown[]): Promise<void> {
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n").join("");
  await Deno.writeTextFile(path, text, { append: true });
}

/** A fresh temporary directory, removed by the returned disposer. */
export async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "gatelab-test-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/**
 * Two rounds of masks over one bare run (gates "r1" with mask seed 1 and
 * "r2" with mask seed 2), for pooled-analysis tests.
 */
export async function writePooledRounds(
  dir: string,
  options: Omit<FixtureOptions, "gateName" | "gateId" | "seed" | "existingBareDir"> = {},
): Promise<[GateFixture, GateFixture]> {
  const a = await writeGateFixture(dir, { ...options, gateName: "r1", gateId: "r1", seed: 1 });
  const b = await writeGateFixture(dir, {
    ...options,
    gateName: "r2",
    gateId: "r2",
    seed: 2,
    existingBareDir: a.bareDir,
  });
  return [a, b];
}

/** Runs `f` with console.log and console.error captured (no file access: a parser, a formatter). */
export async function captured<T>(
  f: () => T | Promise<T>,
): Promise<{ value: T; log: string; err: string }> {
  const { log, error } = console;
  const logs: string[] = [], errs: string[] = [];
  console.log = (...a: unknown[]) => logs.push(a.join(" "));
  console.error = (...a: unknown[]) => errs.push(a.join(" "));
  try {
    const value = await f();
    return { value, log: logs.join("\n"), err: errs.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/**
 * Runs `main(args, context)` with its console captured in a fresh empty
 * working directory of a child Deno (tests/empty_dir_main.ts: the test
 * process's directory is shared by every file of a `--parallel` run), and
 * checks it wrote nothing there: a usage error writes no file.
 */
export async function capturedMain(
  args: readonly string[],
  context: { readonly program?: string } = {},
): Promise<{ value: number; log: string; err: string }> {
  await using child = emptyDirSession();
  const { code, log, err, written } = await child.run(args, context);
  if (written.length > 0) {
    throw new Error(`${args.join(" ")}: nothing may be written, found ${written.join(", ")}`);
  }
  return { value: code, log, err };
}

/** Runs `f` with console.log and console.error silenced (CLI tests). */
export async function quiet<T>(f: () => Promise<T>): Promise<T> {
  const { log, error } = console;
  console.log = () => {};
  console.error = () => {};
  try {
    return await f();
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** An online gate's slots: a current chunk, an ADD candidate, a REWRITE family with two new versions. */
export const ONLINE_SLOTS = [
  { slot_id: "cur", versions: [{ version_id: "cur.v1", role: "current" as const }] },
  { slot_id: "add", versions: [{ version_id: "add.v1", role: "add" as const }] },
  {
    slot_id: "rw",
    versions: [
      { version_id: "rw.v1", role: "old" as const },
      { version_id: "rw.v2", role: "new" as const },
      { version_id: "rw.v3", role: "new" as const },
    ],
  },
];

/** True effects for {@linkcode ONLINE_SLOTS}: the new version rw.v2 beats old rw.v1. */
export const ONLINE_EFFECTS = {
  "cur.v1": 0.1,
  "add.v1": -0.08,
  "rw.v1": 0.05,
  "rw.v2": 0.15,
  "rw.v3": 0.02,
};
