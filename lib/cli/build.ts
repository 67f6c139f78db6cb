/**
 * `deno task gate build [gatelab.yaml] [--out DIR] [--jobs N] [--dry-run]
 * [--only ID]... [--graph] [--quiet]`: builds a study (docs/build.md).
 * Runs the study file's imports and steps in dependency order, each into
 * `<out>/<id>/` exactly as the command run by hand writes it, independent
 * ones at once (each in a worker of its own, lib/cli/build_worker.ts),
 * skipping every one whose key (command, options, input contents, upstream
 * keys, code version) is the one recorded for its output in the build
 * state (lib/build/state.ts).
 *
 * Exit codes: 0 every step built or up to date; 2 a mistake in the study
 * file (nothing runs), a step that failed (its dependents skipped, every
 * other step built) or a path that cannot be used; 1 a step crashed.
 *
 * @module
 */
import { printError, printLine } from "../core/terminal_text.ts";
import { join, relative, resolve } from "node:path";
import { parseCommand } from "./args.ts";
import { BUILD } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputFile } from "./paths.ts";
import { codeVersion } from "../core/meta.ts";
import { formatIssue } from "../core/issue.ts";
import { nearestName } from "../core/nearest_name.ts";
import { writeFilesAtomic } from "../core/atomic_write.ts";
import { acquireLock } from "../core/output_lock.ts";
import { fsProblem, PathError } from "../core/path_error.ts";
import { parseStudyFile } from "../build/study_file.ts";
import { resolveStudy, shownPath, type Study, type StudyNode } from "../build/resolve.ts";
import { graphDot, graphMermaid, graphText, withUpstream } from "../build/graph.ts";
import { fileHashes, inputFiles, type StatCache } from "../build/input_hashes.ts";
import { type NodePlan, planNodes } from "../build/plan.ts";
import {
  type BuildState,
  outputFingerprint,
  readBuildState,
  writeBuildState,
} from "../build/state.ts";
import { checkOutRoot } from "../build/out_root.ts";
import type { StudyLayout } from "../build/assembly_seam.ts";
import type { BuildJob, BuildJobResult } from "./build_job.ts";
import { NOTEBOOKS_DIR, projectNotebook } from "./notebook_file.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, BUILD, context);
  if (cli === null) return 0;
  const { values, positionals } = cli;
  const jobs = values.jobs ?? navigator.hardwareConcurrency;
  const file = positionals[0] ?? "gatelab.yaml";
  const study = await loadStudy(file, values.out);
  if (!("nodes" in study)) {
    for (const issue of study.issues) printError(formatIssue(issue));
    printError(`not built: ${study.issues.length} issue(s) in ${file}; nothing ran`);
    return 2;
  }
  const only = values.only ?? [];
  for (const id of only) {
    if (!study.nodes.some((n) => n.id === id)) {
      const near = nearestName(id, study.nodes.map((n) => n.id));
      printError(
        `usage_error  --only ${id}: no import or step of ${file} has this id` +
          (near ? `; did you mean ${near}?` : ""),
      );
      return 2;
    }
  }
  const shownOut = shownPath(Deno.cwd(), study.out);
  await checkOutRoot(study.out, shownOut);
  if (values.graph) return await writeGraph(study, shownOut);
  const selected = only.length > 0
    ? withUpstream(study.nodes, only).map((id) => study.nodes.find((n) => n.id === id)!)
    : study.nodes;
  const build: Build = {
    study,
    shownOut,
    selected,
    jobs,
    quiet: values.quiet === true,
    whole: only.length === 0,
  };
  if (values["dry-run"]) return await dryRun(build);
  let lock;
  try {
    await Deno.mkdir(study.out, { recursive: true });
    lock = await acquireLock(join(study.out, "gatelab-build"), {
      onWait: (pid) =>
        printError(`waiting: another gate build (pid ${pid ?? "?"}) is building ${shownOut}`),
    });
  } catch (error) {
    throw new PathError(shownOut, `cannot be written: ${fsProblem(error)}`);
  }
  try {
    return await runBuild(build);
  } finally {
    await lock.release();
  }
}

/** One build's settings. */
interface Build {
  readonly study: Study;
  readonly shownOut: string;
  /** The nodes this build considers, in study order (all, or `--only`'s with their upstream). */
  readonly selected: readonly StudyNode[];
  readonly jobs: number;
  readonly quiet: boolean;
  /** Not narrowed by `--only`: the study-wide outputs are built too. */
  readonly whole: boolean;
}

/** Reads, checks and resolves the study file; issues instead when it has mistakes. */
async function loadStudy(file: string, out: string | undefined) {
  await inputFile(
    { label: "study file", path: file },
    "a study file (gatelab.yaml, or JSON of the same schema)",
  );
  const parsed = parseStudyFile(await Deno.readTextFile(file), file);
  if (!parsed.ok) return { issues: parsed.issues };
  return resolveStudy(parsed.study, { cwd: Deno.cwd(), ...(out !== undefined ? { out } : {}) });
}

/** `--graph`: the graph as text on stdout, and as Mermaid and DOT under `<out>/graph/`. */
async function writeGraph(study: Study, shownOut: string): Promise<number> {
  printLine(graphText(study.nodes).trimEnd());
  await writeFilesAtomic(join(study.out, "graph"), {
    "study.mmd": graphMermaid(study.nodes),
    "study.dot": graphDot(study.name, study.nodes),
  });
  printLine(`wrote ${join(shownOut, "graph")}/study.mmd and study.dot`);
  return 0;
}

/** What was found on disk for a plan: the plans, the state and the stat cache to keep. */
interface Planned {
  readonly plans: Map<string, NodePlan>;
  readonly state: BuildState;
  /** The stat cache the next state records. */
  readonly statCache: StatCache;
  /** Whether the stat cache learned anything (else a no-op build writes no state). */
  readonly cacheChanged: boolean;
}

/** Hashes the selected nodes' inputs and plans them against the build state. */
async function planBuild(build: Build): Promise<Planned> {
  const { study, selected } = build;
  const { state, note } = await readBuildState(study.out, study.name);
  if (note !== undefined) printError(`note: ${note}`);
  const seen: StatCache = new Map(state.statCache);
  const inputs = new Map<string, Record<string, string>>();
  const outputs = new Map<string, Awaited<ReturnType<typeof outputFingerprint>>>();
  const looked = new Set<string>();
  for (const node of selected) {
    const files = (await Promise.all([...node.inputs, ...notebookFiles(node)].map(inputFiles)))
      .flat();
    const hashes = await fileHashes(files, seen);
    for (const f of files) looked.add(f);
    inputs.set(
      node.id,
      Object.fromEntries(
        Object.entries(hashes).map((
          [f, sha],
        ) => [relative(study.dir, f).split("\\").join("/"), sha]),
      ),
    );
    outputs.set(node.id, await outputFingerprint(node.out));
  }
  const statCache: StatCache = build.whole
    ? new Map([...seen].filter(([f]) => looked.has(f)))
    : seen;
  const cacheChanged = statCache.size !== state.statCache.size ||
    [...statCache].some(([f, e]) => JSON.stringify(state.statCache.get(f)) !== JSON.stringify(e));
  const plans = planNodes(selected, {
    code: codeVersion(),
    inputs,
    outputs,
    recorded: state.steps,
    shown: (f) => shownPath(Deno.cwd(), resolve(study.dir, f)),
  });
  return { plans, state, statCache, cacheChanged };
}

/** A notebook step reads its notebook: a project notebook by name (a file of the user's is an input). */
function notebookFiles(node: StudyNode): string[] {
  if (node.command !== "notebook" || node.argv[0] !== "--notebook") return [];
  const name = projectNotebook(node.argv[1]!);
  return name === null ? [] : [join(NOTEBOOKS_DIR, name)];
}

/** `--dry-run`: what would run and why; nothing written. */
async function dryRun(build: Build): Promise<number> {
  const { plans } = await planBuild(build);
  const total = build.selected.length;
  let would = 0;
  build.selected.forEach((node, i) => {
    const reasons = plans.get(node.id)!.reasons;
    if (reasons.length === 0) return;
    would++;
    printLine(
      `${position(i, total)} ${node.command} ${node.id}: would build (${reasons.join("; ")})`,
    );
  });
  printLine(
    would === 0
      ? `up to date: ${nodesWords(build.selected)} in ${build.shownOut}; nothing would be built`
      : `dry run: ${would} of ${
        nodesWords(build.selected)
      } would be built; nothing was run or written`,
  );
  return 0;
}

/** How a node ended in this build. */
type Outcome = "built" | "up to date" | "failed" | "skipped";

/** A study-wide output of the build. */
type Unit = "tables" | "report" | "paper";

/** What the phases of {@linkcode runBuild} share: the plans, each node's outcome, the failures. */
interface BuildRun {
  readonly build: Build;
  readonly planned: Planned;
  /** The study-wide outputs this build makes (none under `--only`). */
  readonly units: readonly Unit[];
  readonly outcome: Map<string, Outcome>;
  /** The ids of the nodes and units that failed, in the order they ended. */
  readonly failures: string[];
  /** Whether a step exited with neither 0 nor 2. */
  crashed: boolean;
  /** A progress line `[i/total] what text` on stderr, unless `--quiet`. */
  say(i: number, what: string, text: string): void;
}

/** Runs the build: the nodes that are not up to date, at most `jobs` at once, then the study-wide outputs. */
async function runBuild(build: Build): Promise<number> {
  const planned = await planBuild(build);
  const units = build.whole ? assemblyUnits(build.study) : [];
  const total = build.selected.length + units.length;
  const run: BuildRun = {
    build,
    planned,
    units,
    outcome: new Map(),
    failures: [],
    crashed: false,
    say: (i, what, text) => {
      if (!build.quiet) printError(`${position(i, total)} ${what} ${text}`);
    },
  };
  const stale = build.selected.filter((n) => planned.plans.get(n.id)!.reasons.length > 0);
  if (stale.length === 0 && await nothingToBuild(run)) return 0;
  await runSteps(run, stale);
  // The study-wide outputs show one consistent build: while a step did not build they are kept.
  const notBuilt = build.selected.filter((n) =>
    ["failed", "skipped"].includes(run.outcome.get(n.id)!)
  );
  if (units.length > 0 && notBuilt.length > 0) {
    units.forEach((unit, j) =>
      run.say(
        build.selected.length + j,
        unit,
        `... skipped: ${listIds(notBuilt.map((n) => n.id))} did not build`,
      )
    );
  } else if (units.length > 0) {
    await runAssembly(run);
  }
  return buildSummary(run);
}

/** With every step up to date: when the study-wide outputs are too, says so (and saves a learnt stat cache). */
async function nothingToBuild(run: BuildRun): Promise<boolean> {
  const { build: { selected, shownOut }, planned, units } = run;
  const all = new Map(selected.map((n) => [n.id, "up to date" as Outcome]));
  const unitPlans = await planAssembly(run.build, units, all, planned.plans, planned.state);
  if (!units.every((u) => unitPlans.get(u)!.plan.reasons.length === 0)) return false;
  if (planned.cacheChanged) await saveState(run.build.study.out, planned.state, planned.statCache);
  printLine(
    `up to date: ${nodesWords(selected)}${unitsWords(units)} in ${shownOut}; nothing to build`,
  );
  return true;
}

/** Runs the stale steps (the others are up to date), recording each built one in the state. */
async function runSteps(run: BuildRun, stale: readonly StudyNode[]): Promise<void> {
  const { build: { selected, study, jobs }, planned: { plans, state, statCache }, outcome } = run;
  const total = selected.length + run.units.length;
  selected.forEach((node, i) => {
    if (!stale.includes(node)) {
      outcome.set(node.id, "up to date");
      run.say(i, `${node.command} ${node.id}`, "... up to date");
    }
  });
  let saving = Promise.resolve();
  const record = (id: string, plan: NodePlan, dir: string) => {
    saving = saving.then(async () => {
      const output = await outputFingerprint(dir);
      state.steps.set(id, { ...plan.record, output });
      await saveState(study.out, state, statCache);
    });
    return saving;
  };
  await schedule(selected, jobs, outcome, async (node) => {
    const i = selected.indexOf(node);
    const what = `${node.command} ${node.id}`;
    const failedUp = node.upstream.filter((u) => {
      const o = outcome.get(u);
      return o === "failed" || o === "skipped";
    });
    if (failedUp.length > 0) {
      outcome.set(node.id, "skipped");
      run.say(i, what, `... skipped: it reads ${failedUp.join(", ")}, which did not build`);
      return;
    }
    run.say(i, what, "...");
    const started = performance.now();
    const result = await runNode(node);
    const seconds = secondsSince(started);
    const expected = node.refused ? 2 : 0;
    if (result.code === expected) {
      await record(node.id, plans.get(node.id)!, node.out);
      outcome.set(node.id, "built");
      run.say(i, what, `... built ${seconds}${node.refused ? " (refused, as expected)" : ""}`);
      return;
    }
    if (result.code !== 0 && result.code !== 2) run.crashed = true;
    outcome.set(node.id, "failed");
    const why = node.refused && result.code === 0
      ? "exited 0, but expect: refused says it should refuse (exit 2)"
      : `exit ${result.code}`;
    printError(`${position(i, total)} ${what} ... failed (${why}) ${seconds}`);
    for (const line of firstIssueLines(result.lines)) printError(`    ${line}`);
    run.failures.push(node.id);
  });
  await saving;
}

/** Builds the study-wide outputs that are not up to date, one after another, in a worker each. */
async function runAssembly(run: BuildRun): Promise<void> {
  const { build, planned: { plans, state, statCache }, units } = run;
  const { selected, study } = build;
  const total = selected.length + units.length;
  const unitPlans = await planAssembly(build, units, run.outcome, plans, state);
  for (const [j, unit] of units.entries()) {
    const { plan, layout } = unitPlans.get(unit)!;
    const i = selected.length + j;
    if (plan.reasons.length === 0) {
      run.say(i, unit, "... up to date");
      continue;
    }
    run.say(i, unit, "...");
    const dir = join(study.out, unit);
    const started = performance.now();
    const result = await inWorker({ kind: unit, layout, dir });
    if (result.code !== 0) {
      printError(
        `${position(i, total)} ${unit} ... failed (exit ${result.code}) ${secondsSince(started)}`,
      );
      for (const line of firstIssueLines(result.lines)) printError(`    ${line}`);
      run.failures.push(unit);
      continue;
    }
    state.assembly.set(unit, { ...plan.record, output: await outputFingerprint(dir) });
    await saveState(study.out, state, statCache);
    run.say(i, unit, `... built ${secondsSince(started)}`);
  }
}

/** The build's last line, and its exit code: 0 ok, 2 a step or unit failed, 1 a step crashed. */
function buildSummary(run: BuildRun): number {
  const { build: { selected, shownOut }, units, outcome, failures } = run;
  const count = (o: Outcome) => [...outcome.values()].filter((x) => x === o).length;
  const skipped = selected.filter((n) => outcome.get(n.id) === "skipped").map((n) => n.id);
  const order = [...selected.map((n) => n.id), ...units];
  failures.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  if (failures.length === 0) {
    printLine(
      `ok: ${nodesWords(selected)}${unitsWords(units)} in ${shownOut}: ${count("built")} built, ` +
        `${count("up to date")} up to date`,
    );
    return 0;
  }
  printLine(
    `not ok: ${failures.length} failed (${failures.join(", ")})` +
      (skipped.length > 0 ? `, ${skipped.length} skipped (${skipped.join(", ")})` : "") +
      `; ${count("built")} built, ${count("up to date")} up to date; ` +
      "the outputs of the failed and skipped ones are kept as they were",
  );
  return run.crashed ? 1 : 2;
}

/**
 * Runs `work` for each node once everything it reads has ended, at most
 * `jobs` at once, picking ready nodes in study order. Nodes already in
 * `outcome` (up to date) are done.
 */
async function schedule(
  nodes: readonly StudyNode[],
  jobs: number,
  outcome: Map<string, Outcome>,
  work: (node: StudyNode) => Promise<void>,
): Promise<void> {
  const selected = new Set(nodes.map((n) => n.id));
  const pending = nodes.filter((n) => !outcome.has(n.id));
  const running = new Set<Promise<void>>();
  const ready = (n: StudyNode) => n.upstream.every((u) => !selected.has(u) || outcome.has(u));
  while (pending.length > 0 || running.size > 0) {
    let next: number;
    while (running.size < jobs && (next = pending.findIndex(ready)) >= 0) {
      const node = pending.splice(next, 1)[0]!;
      const task: Promise<void> = work(node).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size === 0) break; // nothing ready: cannot happen in an acyclic graph
    await Promise.race(running);
  }
}

/** Runs one node in a worker of its own; a notebook needs `--allow-run=python3`. */
async function runNode(node: StudyNode): Promise<BuildJobResult> {
  if (node.command === "notebook") {
    const python = Deno.permissions.querySync({ name: "run", command: "python3" }).state;
    if (python !== "granted") {
      return {
        code: 2,
        lines: [
          "usage_error  a notebook step runs python3, which the gate task does not grant; run the " +
          "build as deno run --allow-read --allow-write --allow-sys=cpus --allow-env=INIT_CWD " +
          "--allow-run=rsvg-convert,python3 lib/cli/main.ts build ... (from the gatelab clone)",
        ],
      };
    }
    return await inWorker({
      kind: "notebook",
      argv: node.argv.slice(0, -2),
      out: node.argv.at(-1)!,
    });
  }
  return await inWorker({ kind: "command", argv: node.argv });
}

/** Posts a job to a fresh worker and waits for its result; a worker that dies is a crash. */
function inWorker(job: BuildJob): Promise<BuildJobResult> {
  const worker = new Worker(new URL("./build_worker.ts", import.meta.url), { type: "module" });
  return new Promise<BuildJobResult>((resolve) => {
    worker.onmessage = (event: MessageEvent<BuildJobResult>) => resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      resolve({ code: 1, lines: [`crashed: ${event.message}`] });
    };
    worker.postMessage(job);
  }).finally(() => worker.terminate());
}

/** The lines of a failed unit worth showing: its issue lines first, else its last lines. */
function firstIssueLines(lines: readonly string[]): string[] {
  const issues = lines.filter((l) => /^[a-z_]+( \(warning\))? {2}/.test(l) || /^crashed: /.test(l));
  const shown = issues.length > 0 ? issues : lines.slice(-5);
  return shown.slice(0, 5);
}

/** The study-wide outputs the study asks for: tables always, report and paper unless turned off. */
function assemblyUnits(study: Study): Unit[] {
  return [
    "tables" as const,
    ...(study.report ? ["report" as const] : []),
    ...(study.paper !== false ? ["paper" as const] : []),
  ];
}

/**
 * Each study-wide output's plan: its key is made of the layout (which
 * steps are ok) and the keys of the ok steps, so it is skipped when
 * nothing it reads changed.
 */
async function planAssembly(
  build: Build,
  units: readonly Unit[],
  outcome: ReadonlyMap<string, Outcome>,
  plans: ReadonlyMap<string, NodePlan>,
  state: BuildState,
): Promise<Map<string, { plan: NodePlan; layout: StudyLayout }>> {
  const { study } = build;
  const steps = study.nodes.filter((n) => n.kind === "step");
  const layout: StudyLayout = {
    name: study.name,
    out: study.out,
    steps: steps.map((n) => {
      const o = outcome.get(n.id);
      return {
        id: n.id,
        command: n.command,
        ...(n.title !== undefined ? { title: n.title } : {}),
        inputs: n.reads,
        ok: o === "built" || o === "up to date",
      };
    }),
    paper: study.paper,
    report: study.report,
  };
  const ok = layout.steps.filter((s) => s.ok).map((s) => s.id);
  const unitPlans = planNodes(
    units.map((u) => ({
      id: u,
      command: u,
      argv: [],
      options: { layout: JSON.stringify(layout) },
      upstream: ok,
    })),
    {
      code: codeVersion(),
      inputs: new Map(),
      outputs: new Map(
        await Promise.all(
          units.map(async (u) => [u, await outputFingerprint(join(study.out, u))] as const),
        ),
      ),
      recorded: state.assembly,
      keys: new Map([...plans].map(([id, p]) => [id, p.key])),
    },
  );
  return new Map(units.map((u) => [u, { plan: unitPlans.get(u)!, layout }]));
}

async function saveState(out: string, state: BuildState, statCache: StatCache): Promise<void> {
  await writeBuildState(out, { ...state, statCache });
}

function secondsSince(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** "[3/14]", padded to the width of the total. */
function position(i: number, total: number): string {
  return `[${String(i + 1).padStart(String(total).length)}/${total}]`;
}

/** "4 imports and 14 steps", "1 step". */
/** "a", "a and b", "a, b and c". */
function listIds(ids: readonly string[]): string {
  return ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

/** ", with the study's tables, report and paper": the study-wide outputs of a whole build. */
function unitsWords(units: readonly string[]): string {
  return units.length === 0 ? "" : `, with the study's ${listIds(units)}`;
}

function nodesWords(nodes: readonly StudyNode[]): string {
  const words = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const imports = nodes.filter((n) => n.kind === "import").length;
  const steps = words(nodes.length - imports, "step");
  return imports === 0 ? steps : `${words(imports, "import")} and ${steps}`;
}
