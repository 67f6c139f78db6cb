/**
 * The study of the build tests and `deno task bench --build`: seven gates
 * over four checkpoints, imported at build time from three CSV tables (one
 * checkpoint each, rounds r1 and r2) and from inspect_ai logs of the demo's
 * Gate A (written by scripts/reference/write_inspect_logs.py, Python's
 * standard library only), analysed, pooled, validated, re-read
 * sequentially, checked on held-out folds, planned for power, followed
 * across three checkpoints and reported. Everything is made at test time
 * in a directory of its own: the tables by a seeded generator (no gatelab
 * code), the logs by the script.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gateTask } from "./gate_process.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The study file (paths relative to it). */
export const STUDY_YAML = `# seven gates over four checkpoints
study: three checkpoints
imports:
  - id: a
    table: a.csv
  - id: b
    table: b.csv
  - id: c
    table: c.csv
  - id: logs
    bare: logs/bare.eval
    masked: logs/gate-a.eval
    map: logs/mapping.json
steps:
  - analyze: a/ck-1/gate-r1
    bootstrap: 200
  - analyze: a/ck-1/gate-r2
    bootstrap: 200
  - analyze: [a/ck-1/gate-r1, a/ck-1/gate-r2]
    bootstrap: 200
    id: ck-1-pooled
  - analyze: b/ck-2/gate-r1
    bootstrap: 200
  - analyze: b/ck-2/gate-r2
    bootstrap: 200
  - analyze: c/ck-3/gate-r1
    bootstrap: 200
  - analyze: c/ck-3/gate-r2
    bootstrap: 200
  - validate: logs
  - analyze: logs
    bootstrap: 200
    id: logs-analysis
  - sequential: a/ck-1/gate-r1
    every: 10
  - heldout: b/ck-2/gate-r1
    plan: plans/kfold.json
  - plan-power:
    from: ck-1-r1
    sims: 50
  - history: [ck-1-r1, ck-2-r1, ck-3-r1]
    allow-lineage-gaps: true
    id: history
  - report: [ck-1-r1, ck-2-r1, ck-3-r1, history]
    id: overview
`;

/**
 * The same study as command lines typed by hand in the study's directory,
 * in an order that respects every dependency: what `gate build` must run.
 */
export const HAND_COMMANDS: readonly (readonly string[])[] = [
  "import table a.csv --out out/a",
  "import table b.csv --out out/b",
  "import table c.csv --out out/c",
  "import inspect --bare logs/bare.eval --masked logs/gate-a.eval --map logs/mapping.json --out out/logs",
  "analyze out/a/ck-1/gate-r1 --bootstrap 200 --out out/ck-1-r1",
  "analyze out/a/ck-1/gate-r2 --bootstrap 200 --out out/ck-1-r2",
  "analyze out/a/ck-1/gate-r1 out/a/ck-1/gate-r2 --bootstrap 200 --out out/ck-1-pooled",
  "analyze out/b/ck-2/gate-r1 --bootstrap 200 --out out/ck-2-r1",
  "analyze out/b/ck-2/gate-r2 --bootstrap 200 --out out/ck-2-r2",
  "analyze out/c/ck-3/gate-r1 --bootstrap 200 --out out/ck-3-r1",
  "analyze out/c/ck-3/gate-r2 --bootstrap 200 --out out/ck-3-r2",
  "validate out/logs --out out/validate-logs",
  "analyze out/logs --bootstrap 200 --out out/logs-analysis",
  "sequential out/a/ck-1/gate-r1 --every 10 --out out/sequential-ck-1-r1",
  "heldout out/b/ck-2/gate-r1 --plan plans/kfold.json --out out/heldout-ck-2-r1",
  "plan-power --from out/ck-1-r1 --sims 50 --out out/plan-power-ck-1-r1",
  "history out/ck-1-r1 out/ck-2-r1 out/ck-3-r1 --allow-lineage-gaps --out out/history",
  "report out/ck-1-r1 out/ck-2-r1 out/ck-3-r1 out/history --out out/overview",
].map((line) => line.split(" "));

/** The ids of the study in file order (imports first). */
export const STUDY_IDS: readonly string[] = HAND_COMMANDS.map((argv) => argv.at(-1)!.slice(4));

/**
 * One checkpoint's rollouts as CSV, one row per attempt: 60 tasks, a bare
 * row and two masked rows (rounds r1, r2) each, four candidate versions as
 * 0/1 mask columns drawn at random, rewards from a linear model with noise
 * (four decimals). A seeded xorshift stream, so the bytes are fixed.
 */
export function checkpointCsv(checkpoint: string, seed: number): string {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  const effects = [0.1, 0.05, -0.03, 0];
  const lines = ["task_id,arm,checkpoint_id,round,reward,mask:q.v1,mask:a.v1,mask:b.v1,mask:c.v1"];
  for (let t = 0; t < 60; t++) {
    const task = `t${String(t).padStart(3, "0")}`;
    const bare = next();
    lines.push(`${task},bare,${checkpoint},,${bare.toFixed(4)},0,0,0,0`);
    for (const round of ["r1", "r2"]) {
      const bits = effects.map(() => next() < 0.5 ? 1 : 0);
      const noise = (next() + next() + next() - 1.5) * 0.08;
      const masked = bare + bits.reduce<number>((s, b, i) => s + b * effects[i]!, 0) + noise;
      lines.push(`${task},masked,${checkpoint},${round},${masked.toFixed(4)},${bits.join(",")}`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * Writes the study into `dir`: gatelab.yaml (or `yaml`), the three tables,
 * the held-out plan and the inspect_ai logs. Needs python3.
 */
export async function writeStudy(dir: string, yaml = STUDY_YAML): Promise<void> {
  await Deno.mkdir(join(dir, "plans"), { recursive: true });
  await Deno.writeTextFile(join(dir, "gatelab.yaml"), yaml);
  for (
    const [name, checkpoint, seed] of [["a", "ck-1", 11], ["b", "ck-2", 22], [
      "c",
      "ck-3",
      33,
    ]] as const
  ) {
    await Deno.writeTextFile(join(dir, `${name}.csv`), checkpointCsv(checkpoint, seed));
  }
  await Deno.copyFile(
    join(ROOT, "data", "plans", "heldout-kfold5.json"),
    join(dir, "plans", "kfold.json"),
  );
  const logs = await new Deno.Command("python3", {
    args: [
      join(ROOT, "scripts", "reference", "write_inspect_logs.py"),
      join(ROOT, "data", "demo", "ckpt-a", "gate-a"),
      "--out",
      join(dir, "logs"),
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!logs.success) throw new Error(new TextDecoder().decode(logs.stderr));
}

/**
 * Copies a study's inputs (everything but its out/) to a new directory, so
 * two builds read the same bytes (the .eval logs are zip files that record
 * the time they were written).
 */
export async function copyStudy(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (entry.name === "out") continue;
    const source = join(from, entry.name), target = join(to, entry.name);
    if (entry.isDirectory) await copyStudy(source, target);
    else await Deno.copyFile(source, target);
  }
}

/** A `deno task gate` process as a user in `cwd` starts it. */
export function gateCommand(cwd: string, args: readonly string[]): Deno.Command {
  return new Deno.Command("deno", {
    args: [...gateTask().args, ...args],
    cwd: ROOT,
    env: { ...gateTask().env, INIT_CWD: cwd, NO_COLOR: "1", GATELAB_NO_PROGRESS: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** What a finished run printed. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `deno task gate <args>` in `cwd` to the end. */
export async function gate(cwd: string, args: readonly string[]): Promise<Ran> {
  const { code, stdout, stderr } = await gateCommand(cwd, args).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

/** Every file under `dir`: relative path to bytes, in code-point order. */
export function filesOf(dir: string, prefix = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) { for (const [k, v] of filesOf(path, `${prefix}${e.name}/`)) out.set(k, v); }
    else out.set(`${prefix}${e.name}`, Deno.readFileSync(path));
  }
  return out;
}

/** The ids a build's progress lines say were built, in the order they finished. */
export function builtIds(stderr: string): string[] {
  return [...stderr.matchAll(/^\[ *\d+\/\d+\] \S+(?: \S+)? (\S+) \.\.\. built /gm)].map((m) =>
    m[1]!
  );
}

/** docs/build.md's "A first study" (the README's too, tests/build_readme_test.ts): its gatelab.yaml. */
export const FIRST_STUDY: string = (() => {
  const guide = Deno.readTextFileSync(join(ROOT, "docs", "build.md"));
  const m = /## A first study[\s\S]*?```yaml\n([\s\S]*?)```/.exec(guide);
  if (m === null) throw new Error("docs/build.md has no yaml block under ## A first study");
  return m[1]!;
})();

/**
 * Writes the first study into `dir` as a user has it: gatelab.yaml (or
 * `yaml`), the rollouts table it imports and the held-out plan it names.
 */
export async function writeFirstStudy(dir: string, yaml = FIRST_STUDY): Promise<void> {
  await Deno.writeTextFile(join(dir, "gatelab.yaml"), yaml);
  await Deno.writeTextFile(join(dir, "rollouts.csv"), checkpointCsv("ck-200", 7));
  await Deno.copyFile(
    join(ROOT, "data", "plans", "heldout-kfold5.json"),
    join(dir, "heldout-kfold5.json"),
  );
}
