import { join, resolve } from "node:path";
import type { Issue } from "../core/issue.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { loadRunParts, type RunParts } from "../load/read_run.ts";
import { type GateParts, readGateParts } from "../load/read_gate.ts";
import { resolveBareDir } from "../load/bare_dir.ts";
import { StringIds } from "../load/columns.ts";
import { RUN_READER_MIN_BYTES, startRunReader } from "../load/run_reader.ts";

/** One input file set of a validation, with its content hash. */
export interface ValidationInput {
  /** Directory of the files. */
  readonly dir: string;
  /** `bare` run, `gate` plan files (gate.json + assignments.jsonl), `masked` run. */
  readonly kind: "bare" | "gate" | "masked";
  /** Run id of a run (absent for gate plan files or an unreadable run). */
  readonly run_id?: string;
  /** sha256 over the files' bytes (manifest then traces; gate.json then assignments), null if unreadable. */
  readonly sha256: string | null;
  /**
   * Runs only (`bare`, `masked`): `hit` when the parsed run came from the
   * run cache, `miss` when it was parsed now (with a cache directory), `off`
   * when no cache was used. Gate plan files are always parsed.
   */
  readonly cache?: RunCacheStatus;
}

/** Where a run's parsed data came from (see {@linkcode ValidationInput}). */
export type RunCacheStatus = "hit" | "miss" | "off";

/** One gate directory as read: its plan files and its masked run. */
export interface GateRead {
  readonly dir: string;
  readonly gate: GateParts;
  readonly masked: RunParts;
  readonly maskedCache: RunCacheStatus;
  /** `<dir>/gate.json`, the file plan issues name. */
  readonly planFile: string;
  /** The bare run directory the plan names, resolved; null without a plan. */
  readonly bareDir: string | null;
  /** Index into {@linkcode ValidationRead.bares} of this gate's own bare run; null without one. */
  readonly bareIndex: number | null;
}

/** Everything {@linkcode readValidationInputs} read. */
export interface ValidationRead {
  /** Gates in the order given (a directory given twice is read once). */
  readonly gates: readonly GateRead[];
  /** The first gate's bare run (`bares[0]`), or null when no plan named one. */
  readonly bare: RunParts | null;
  /**
   * Every distinct bare run the gates name, in first-seen gate order: two
   * directories with the same content are one bare run. Each gate is paired
   * with its own (`GateRead.bareIndex`), never with another gate's.
   */
  readonly bares: readonly RunParts[];
  /** Issues of reading, in the order found: per gate its plan files then its run, then the bare run. */
  readonly issues: readonly Issue[];
  /** `cache_corrupt` warnings of the run cache. */
  readonly warnings: readonly Issue[];
  /** The bare run, then per gate its plan files and its masked run. */
  readonly inputs: readonly ValidationInput[];
}

/** Options of {@linkcode readValidationInputs}. */
export interface ReadValidationInputsOptions {
  /** Progress over the files read (one unit per run or gate plan). */
  readonly onProgress?: ProgressCallback;
  /** Progress over the bytes of each run's traces.jsonl and each gate's assignments.jsonl: a callback per file, or none. */
  readonly onRead?: (file: string) => ProgressCallback | undefined;
  /**
   * Run cache directory (see `ValidateGatesOptions.cacheDir`).
   * @default {undefined}
   */
  readonly cacheDir?: string;
  /**
   * Gates with different bare runs (checkpoints) are read, each with its
   * own; unset, they are refused with one `usage_error` naming them.
   * @default {false}
   */
  readonly poolCheckpoints?: boolean;
  /**
   * Whether the masked runs are read in a Web Worker beside this thread's
   * reading of the plans and the bare runs (lib/load/run_reader.ts): by
   * default when the machine has two cores or more and their traces.jsonl
   * have `RUN_READER_MIN_BYTES` or more in all (never with `cacheDir`).
   * Either way the result is the same; a URL reads them in a worker of that
   * module (tests).
   */
  readonly readWorker?: boolean | URL;
}

/**
 * Reads the files of a validation: every gate's plan files and masked run,
 * then each distinct bare run the gates name. Reports a directory given
 * twice (`usage_error`) and, unless `poolCheckpoints`, gates whose bare runs
 * differ in content (one `usage_error` on `bare_run_dir` naming the
 * checkpoints and the two ways on: analyze each gate, or pool them with
 * `--pool-checkpoints`); every other check works on what this returns. A
 * gate is always paired with its own bare run (`bareIndex`).
 *
 * @param gateDirs Gate directories, at least one.
 * @param options Progress and run cache directory.
 * @returns The gates, the bare run, the issues and warnings of reading, and the inputs with their hashes.
 *
 * @example
 * ```ts
 * import { readValidationInputs } from "./read_inputs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await readValidationInputs(["/nonexistent-gate"]);
 * deepEqual([r.bare, r.inputs.map((i) => i.kind), r.issues.length], [null, ["gate", "masked"], 4]);
 * ```
 */
export async function readValidationInputs(
  gateDirs: readonly string[],
  options: ReadValidationInputsOptions = {},
): Promise<ValidationRead> {
  const issues: Issue[] = [];
  const warnings: Issue[] = [];
  const cacheDir = options.cacheDir;
  const onRead = options.onRead;
  // One id per distinct string across every file read: task and version ids are held once.
  const ids = new StringIds();
  const loadRun = async (dir: string): Promise<{ parts: RunParts; cache: RunCacheStatus }> => {
    if (cacheDir === undefined) {
      return {
        parts: await loadRunParts(dir, onRead ? { onProgress: onRead, ids } : { ids }),
        cache: "off",
      };
    }
    // Loaded only with a cache directory: lib/cache pulls in apache-arrow,
    // which commands without --cache should not pay for.
    const { cachedLoadRunParts } = await import("../cache/cached_read_run.ts");
    const loaded = await cachedLoadRunParts(dir, { cacheDir });
    warnings.push(...loaded.warnings);
    return { parts: loaded.parts, cache: loaded.cache };
  };
  const total = gateDirs.length * 2 + 1;
  let done = 0;
  const given = new Set<string>();
  // null where a directory is given again (read once, reported in its place below).
  const dirs = gateDirs.map((dir) =>
    given.has(resolve(dir)) ? null : (given.add(resolve(dir)), dir)
  );
  // Large masked runs are read in a worker while this thread reads the plans and the bare runs.
  const reader = cacheDir === undefined && readInWorker(dirs, options.readWorker)
    ? startRunReader(dirs.filter((dir) => dir !== null), {
      ...(onRead ? { onRead } : {}),
      ...(options.readWorker instanceof URL ? { workerUrl: options.readWorker } : {}),
    })
    : null;
  try {
    const plans = [];
    for (const dir of dirs) {
      if (dir === null) continue;
      const gate = await readGateParts(dir, onRead ? { onProgress: onRead, ids } : { ids });
      const run = reader === null ? await loadRun(dir) : null;
      if (run !== null) options.onProgress?.(done += 2, total);
      const planFile = join(dir, "gate.json");
      let bareDir = gate.plan ? resolveBareDir(dir, gate.plan.bare_run_dir) : null;
      let wrong: Issue | null = null;
      if (gate.plan && bareDir !== null) {
        wrong = bareDirProblem(dir, bareDir, gate.plan.bare_run_dir, planFile);
        if (wrong !== null) bareDir = null; // nothing to read as the bare run
      }
      plans.push({ dir, gate, run, planFile, bareDir, wrong });
    }

    // Each distinct bare directory read once; directories with the same content are one bare run.
    const bares: { parts: RunParts; cache: RunCacheStatus }[] = [];
    const bareIssues: Issue[] = [];
    const byDir = new Map<string, number>();
    for (const g of plans) {
      if (g.bareDir === null || byDir.has(g.bareDir)) continue;
      const loaded = await loadRun(g.bareDir);
      const same = loaded.parts.sha256 === null
        ? -1
        : bares.findIndex((b) => b.parts.sha256 === loaded.parts.sha256);
      if (same >= 0) byDir.set(g.bareDir, same);
      else {
        byDir.set(g.bareDir, bares.length);
        bares.push(loaded);
        bareIssues.push(...loaded.parts.issues);
      }
    }

    // The issues in the order of reading one file after another: per gate its plan files, its
    // masked run and its bare_run_dir, then the bare runs.
    const gates: GateRead[] = [];
    let at = 0;
    for (const [i, dir] of dirs.entries()) {
      if (dir === null) {
        issues.push({
          code: "usage_error",
          message: `gate directory ${gateDirs[i]} is given twice; each round counts once`,
        });
        continue;
      }
      const { gate, run, planFile, bareDir, wrong } = plans[at++]!;
      const { parts: masked, cache: maskedCache } = run ??
        { parts: await (await reader!.runs[at - 1]!).take(ids), cache: "off" as const };
      if (run === null) options.onProgress?.(done += 2, total);
      for (const issue of [...gate.issues, ...masked.issues]) issues.push(issue);
      if (wrong !== null) issues.push(wrong);
      gates.push({ dir, gate, masked, maskedCache, planFile, bareDir, bareIndex: null });
    }
    issues.push(...bareIssues);
    const paired = gates.map((g): GateRead => ({
      ...g,
      bareIndex: g.bareDir === null ? null : byDir.get(g.bareDir)!,
    }));
    if (bares.length > 1 && options.poolCheckpoints !== true) {
      issues.push(checkpointsRefusal(paired, bares.map((b) => b.parts)));
    }
    options.onProgress?.(total, total);
    const inputs: ValidationInput[] = [];
    for (const b of bares) inputs.push(runInput(b.parts, "bare", b.cache));
    for (const g of paired) {
      inputs.push({ dir: g.dir, kind: "gate", sha256: g.gate.sha256 });
      inputs.push(runInput(g.masked, "masked", g.maskedCache));
    }
    const all = bares.map((b) => b.parts);
    return { gates: paired, bare: all[0] ?? null, bares: all, issues, warnings, inputs };
  } finally {
    reader?.close();
  }
}

/**
 * Whether {@linkcode readValidationInputs} reads the masked runs in a
 * worker: as `readWorker` says when given (a URL: always, with that
 * module), else when the machine has two cores or more and the gates'
 * traces.jsonl have `RUN_READER_MIN_BYTES` or more in all.
 *
 * @param dirs The gate directories (null: one given again, not read).
 * @param readWorker The option as given.
 * @returns Whether a worker reads them.
 *
 * @example
 * ```ts
 * import { readInWorker } from "./read_inputs.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([readInWorker(["data/demo/ckpt-a/gate-a"], undefined), readInWorker([], true)], [false, true]);
 * ```
 */
export function readInWorker(
  dirs: readonly (string | null)[],
  readWorker: boolean | URL | undefined,
): boolean {
  if (readWorker !== undefined) return readWorker !== false;
  if ((navigator.hardwareConcurrency ?? 1) < 2) return false;
  let bytes = 0;
  for (const dir of dirs) {
    if (dir === null) continue;
    try {
      bytes += Deno.statSync(join(dir, "traces.jsonl")).size;
    } catch { /* reported when read */ }
  }
  return bytes >= RUN_READER_MIN_BYTES;
}

/**
 * The one line that refuses gates of different bare runs (checkpoints) given
 * together without `--pool-checkpoints`: each gate with its checkpoint and
 * bare run, and the two ways on.
 */
function checkpointsRefusal(gates: readonly GateRead[], bares: readonly RunParts[]): Issue {
  const named = bares.map((b, i) => {
    const members = gates.filter((g) => g.bareIndex === i).map((g) => g.dir);
    const checkpoint = b.manifest?.provenance.checkpoint_id;
    return `${members.join(", ")} (checkpoint ${checkpoint ?? "unreadable"}, bare run ${b.dir})`;
  });
  const second = gates.find((g) => g.bareIndex === 1)!;
  return {
    code: "usage_error",
    message:
      `gates of ${bares.length} different bare runs cannot be pooled as rounds: ${
        named.join("; ")
      }; analyze each gate on its own, or pass --pool-checkpoints (gate analyze, gate validate) to ` +
      `pool them (each gate paired with its own bare run, clustered by task, with tests of equal ` +
      `effects across checkpoints)`,
    file: second.planFile,
    path: "bare_run_dir",
  };
}

/**
 * A `bare_run_dir` that cannot name a bare run: the gate directory itself
 * (`.`, `../gate`, or a link to it), or a loop of symbolic links. One issue
 * on gate.json's field, instead of the gate's own masked run being checked
 * as a bare run (a line per injected attempt) or an io_error per file.
 */
function bareDirProblem(
  gateDir: string,
  bareDir: string,
  given: string,
  planFile: string,
): Issue | null {
  let real: string;
  try {
    real = Deno.realPathSync(bareDir);
  } catch (error) {
    if (!(error instanceof Deno.errors.FilesystemLoop) && !/os error 40\b/.test(String(error))) {
      return null; // missing or unreadable: reading its files reports that
    }
    return {
      code: "io_error",
      message: `bare_run_dir ${
        JSON.stringify(given)
      } runs into a loop of symbolic links (${bareDir}); it must name the bare run's directory`,
      file: planFile,
      path: "bare_run_dir",
    };
  }
  let gateReal: string;
  try {
    gateReal = Deno.realPathSync(gateDir);
  } catch {
    return null;
  }
  if (real !== gateReal) return null;
  return {
    code: "provenance_mismatch",
    message: `bare_run_dir ${
      JSON.stringify(given)
    } names the gate directory itself; it must name the bare run (the same tasks run without skills)`,
    file: planFile,
    path: "bare_run_dir",
  };
}

function runInput(
  parts: RunParts,
  kind: "bare" | "masked",
  cache: RunCacheStatus,
): ValidationInput {
  return {
    dir: parts.dir,
    kind,
    ...(parts.manifest ? { run_id: parts.manifest.run_id } : {}),
    sha256: parts.sha256,
    cache,
  };
}
