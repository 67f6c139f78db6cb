import { join, resolve } from "node:path";
import type { Issue } from "../core/issue.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { loadRunParts, type RunParts } from "../load/read_run.ts";
import { type GateParts, readGateParts } from "../load/read_gate.ts";
import { resolveBareDir } from "../load/bare_dir.ts";

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
}

/** Everything {@linkcode readValidationInputs} read. */
export interface ValidationRead {
  /** Gates in the order given (a directory given twice is read once). */
  readonly gates: readonly GateRead[];
  /** The shared bare run (the first gate's), or null when no plan named one. */
  readonly bare: RunParts | null;
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
  /** Progress over the bytes of each run's traces.jsonl: a callback per file, or none. */
  readonly onRead?: (file: string) => ProgressCallback | undefined;
  /**
   * Run cache directory (see `ValidateGatesOptions.cacheDir`).
   * @default {undefined}
   */
  readonly cacheDir?: string;
}

/**
 * Reads the files of a validation: every gate's plan files and masked run,
 * then the one bare run they share. Reports a directory given twice
 * (`usage_error`) and gates whose bare runs differ in content
 * (`provenance_mismatch` on `bare_run_dir`); every other check works on
 * what this returns.
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
  const loadRun = async (dir: string): Promise<{ parts: RunParts; cache: RunCacheStatus }> => {
    if (cacheDir === undefined) {
      const onRead = options.onRead;
      return { parts: await loadRunParts(dir, onRead ? { onProgress: onRead } : {}), cache: "off" };
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

  const gates: GateRead[] = [];
  const given = new Set<string>();
  for (const dir of gateDirs) {
    if (given.has(resolve(dir))) {
      issues.push({
        code: "usage_error",
        message: `gate directory ${dir} is given twice; each round counts once`,
      });
      continue;
    }
    given.add(resolve(dir));
    const gate = await readGateParts(dir);
    const { parts: masked, cache: maskedCache } = await loadRun(dir);
    options.onProgress?.(done += 2, total);
    for (const issue of [...gate.issues, ...masked.issues]) issues.push(issue);
    const planFile = join(dir, "gate.json");
    let bareDir = gate.plan ? resolveBareDir(dir, gate.plan.bare_run_dir) : null;
    if (gate.plan && bareDir !== null) {
      const wrong = bareDirProblem(dir, bareDir, gate.plan.bare_run_dir, planFile);
      if (wrong !== null) issues.push(wrong), bareDir = null; // nothing to read as the bare run
    }
    gates.push({ dir, gate, masked, maskedCache, planFile, bareDir });
  }

  const bareDirs = [...new Set(gates.flatMap((g) => (g.bareDir === null ? [] : [g.bareDir])))];
  let bare: RunParts | null = null;
  let bareCache: RunCacheStatus = "off";
  if (bareDirs.length > 0) {
    ({ parts: bare, cache: bareCache } = await loadRun(bareDirs[0]!));
    for (const issue of bare.issues) issues.push(issue);
    for (const other of bareDirs.slice(1)) {
      const { parts } = await loadRun(other);
      if (parts.sha256 === null || parts.sha256 !== bare.sha256) {
        const g = gates.find((x) => x.bareDir === other)!;
        issues.push({
          code: "provenance_mismatch",
          message: `gates do not share one bare run: this gate uses ${other}, the first gate uses ${
            bareDirs[0]
          } (different content); pooled rounds must reuse the same bare traces`,
          file: g.planFile,
          path: "bare_run_dir",
        });
      }
    }
  }
  options.onProgress?.(total, total);
  const inputs: ValidationInput[] = [];
  if (bare) inputs.push(runInput(bare, "bare", bareCache));
  for (const g of gates) {
    inputs.push({ dir: g.dir, kind: "gate", sha256: g.gate.sha256 });
    inputs.push(runInput(g.masked, "masked", g.maskedCache));
  }
  return { gates, bare, issues, warnings, inputs };
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
