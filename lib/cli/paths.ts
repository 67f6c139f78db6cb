/**
 * Checks of the paths a command was given, made before any work so a path
 * mistake costs no time and reads as one line (exit 2), never as a crash:
 * `--out README.md is a file; expected a directory for the outputs`.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { UsageError } from "./args.ts";
import { fsProblem, PathError } from "../core/path_error.ts";
import { checkReplaceable } from "../core/atomic_write.ts";

/** A path as the user gave it, with the option (or positional) that named it. */
export interface GivenPath {
  /** `--out`, `--ledger`, or a positional's name ("gate directory"). */
  readonly label: string;
  readonly path: string;
}

function shown(p: GivenPath): string {
  return p.label.startsWith("-") ? `${p.label} ${p.path}` : p.path;
}

async function lstatOrNull(p: GivenPath): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(p.path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new UsageError(`${shown(p)} ${fsProblem(error)}`);
  }
}

/**
 * A gate directory: an input directory, and when it holds no `gate.json`
 * but directories below it do (a checkpoint folder), the user meant one of
 * them: `did you mean ckpt-a/gate-a?` when there is one, the list when
 * there are several. A directory with neither is left to validation, which
 * names each missing file.
 *
 * @throws {UsageError} `ckpt-a holds no gate.json; did you mean ckpt-a/gate-a?`.
 *
 * @example
 * ```ts
 * import { gateDir } from "./paths.ts";
 * import { rejects } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/gate-a`);
 * await Deno.writeTextFile(`${dir}/gate-a/gate.json`, "{}");
 * await rejects(gateDir({ label: "gate directory", path: dir }), /holds no gate\.json; did you mean .*\/gate-a\?$/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function gateDir(p: GivenPath): Promise<void> {
  await inputDir(p, "a gate directory (the directory holding gate.json)");
  await suggestGateDir(p);
}

/**
 * The "did you mean" part of {@linkcode gateDir} alone: refuses a directory
 * that holds no `gate.json` but gate directories below it; anything else
 * (also a path that does not exist) is left to validation.
 *
 * @throws {UsageError} `ckpt-a holds no gate.json; did you mean ckpt-a/gate-a?`.
 */
export async function suggestGateDir(p: GivenPath): Promise<void> {
  const exists = async (path: string) => {
    try {
      await Deno.stat(path);
      return true;
    } catch {
      return false;
    }
  };
  if (await exists(join(p.path, "gate.json"))) return;
  const gates: string[] = [];
  try {
    for await (const e of Deno.readDir(p.path)) {
      if (e.isDirectory && await exists(join(p.path, e.name, "gate.json"))) gates.push(e.name);
    }
  } catch {
    return; // unreadable: validation says so
  }
  if (gates.length === 0) return;
  gates.sort();
  const under = (name: string) => join(p.path, name);
  throw new UsageError(
    gates.length === 1
      ? `${shown(p)} holds no gate.json; did you mean ${under(gates[0]!)}?`
      : `${shown(p)} holds no gate.json; it holds ${gates.length} gate directories: ${
        gates.map(under).join(", ")
      } (give one, or several rounds sharing one bare run)`,
  );
}

/**
 * An input directory: must exist and be a directory.
 *
 * @param what What it should be, for the message: "a gate directory".
 * @throws {UsageError} `gate-a/gate.json is a file; expected a gate directory`.
 *
 * @example
 * ```ts
 * import { inputDir } from "./paths.ts";
 * import { rejects } from "node:assert/strict";
 * const file = await Deno.makeTempFile();
 * await rejects(inputDir({ label: "gate directory", path: file }, "a gate directory"), /is a file; expected a gate directory/);
 * await Deno.remove(file);
 * ```
 */
export async function inputDir(p: GivenPath, what: string): Promise<void> {
  const info = await lstatOrNull(p);
  if (info === null) throw new UsageError(`${shown(p)} does not exist; expected ${what}`);
  if (!info.isDirectory) {
    throw new UsageError(
      `${shown(p)} is ${info.isFile ? "a file" : "not a directory"}; expected ${what}`,
    );
  }
}

/**
 * An input file: must exist and be a regular file (not a directory, FIFO or device).
 *
 * @throws {UsageError} `--plan plans is a directory; expected a heldout plan file (JSON)`.
 */
export async function inputFile(p: GivenPath, what: string): Promise<void> {
  const info = await lstatOrNull(p);
  if (info === null) throw new UsageError(`${shown(p)} does not exist; expected ${what}`);
  if (info.isDirectory) throw new UsageError(`${shown(p)} is a directory; expected ${what}`);
  if (!info.isFile) throw new UsageError(`${shown(p)} is not a regular file; expected ${what}`);
}

/**
 * An output directory: a directory or a path that does not exist yet (it
 * is created, with missing parents). The directory is replaced whole, so
 * it must not contain an input.
 *
 * @param inputs Inputs that must lie outside it (`--from`, report sources, a cache).
 * @param options `replacedWhole: false` for a directory written into, not
 *   replaced (the run cache): then any existing directory will do.
 * @throws {UsageError} `--out README.md is a file; expected a directory for the outputs`.
 */
export async function outputDir(
  p: GivenPath,
  inputs: readonly GivenPath[] = [],
  options: { readonly replacedWhole?: boolean } = {},
): Promise<void> {
  const info = await lstatOrNull(p);
  if (info !== null && !info.isDirectory) {
    throw new UsageError(
      `${shown(p)} is a file; expected a directory for the outputs (or a new path)`,
    );
  }
  if (options.replacedWhole ?? true) {
    try {
      await checkReplaceable(p.path); // a symbolic link, or a directory gatelab did not write
    } catch (error) {
      if (error instanceof PathError) throw new UsageError(`${p.label} ${error.message}`);
      throw error;
    }
  }
  const out = resolve(p.path);
  for (const input of inputs) {
    if (within(out, resolve(input.path))) {
      throw new UsageError(
        `${shown(p)} contains ${
          shown(input)
        }; the output directory is replaced whole, so write to another directory`,
      );
    }
  }
  await existingAncestor(p);
}

/**
 * An output file the command replaces (`--ledger`, `sql --out`): a regular
 * file or a new path in a directory that exists. Directories are not made
 * silently: a typo in the directory is refused.
 *
 * @throws {UsageError} `--ledger /tmp is a directory; expected a file`,
 *   `--out /no/such/dir/x.csv: directory /no/such/dir does not exist`.
 */
export async function outputFile(p: GivenPath, what = "a file"): Promise<void> {
  const info = await lstatOrNull(p);
  if (info !== null && info.isDirectory) {
    throw new UsageError(`${shown(p)} is a directory; expected ${what}`);
  }
  if (info !== null && !info.isFile) {
    throw new UsageError(`${shown(p)} is not a regular file; expected ${what}`);
  }
  const parent = dirname(p.path);
  const dir = await lstatOrNull({ label: "", path: parent });
  if (dir === null) {
    throw new UsageError(
      `${
        shown(p)
      }: directory ${parent} does not exist (it is not created for ${what}; make it first)`,
    );
  }
  if (!dir.isDirectory) throw new UsageError(`${shown(p)}: ${parent} is not a directory`);
}

/** `path` with symbolic links resolved: the real path, or for a new file its directory's real path and its name. */
async function realOrNew(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    try {
      return join(await Deno.realPath(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * An output file must not replace or sit inside what the command reads:
 * `--out` naming one of the inputs, or a file inside an input directory
 * (a gate's traces.jsonl, a file in its bare run), is refused. Paths are
 * compared with symbolic links resolved.
 *
 * @param p The output file.
 * @param inputs The files and directories the command reads.
 * @throws {UsageError} `--out g/traces.jsonl is inside g, which this command reads; write it elsewhere`.
 *
 * @example
 * ```ts
 * import { outputFileOutside } from "./paths.ts";
 * import { rejects } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/gate`);
 * await rejects(
 *   outputFileOutside({ label: "--out", path: `${dir}/gate/traces.jsonl` }, [{ label: "gate directory", path: `${dir}/gate` }]),
 *   /traces\.jsonl is inside .*gate, which this command reads; write it elsewhere$/,
 * );
 * await outputFileOutside({ label: "--out", path: `${dir}/x.csv` }, [{ label: "gate directory", path: `${dir}/gate` }]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function outputFileOutside(p: GivenPath, inputs: readonly GivenPath[]): Promise<void> {
  const out = await realOrNew(p.path);
  for (const input of inputs) {
    const read = await realOrNew(input.path);
    if (!within(read, out)) continue;
    throw new UsageError(
      out === read
        ? `${shown(p)} is ${input.path}, which this command reads; write it elsewhere`
        : `${shown(p)} is inside ${input.path}, which this command reads; write it elsewhere`,
    );
  }
}

/**
 * Whether `path` is `dir` or inside it (both absolute).
 *
 * @example
 * ```ts
 * import { within } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(within("/a/out", "/a/out/x.json"), true);
 * equal(within("/a/out", "/a/out"), true);
 * equal(within("/a/out", "/a/output"), false);
 * equal(within("/a/out", "/a/out/..x"), true);
 * ```
 */
export function within(dir: string, path: string): boolean {
  const r = relative(dir, path);
  return r === "" || (r !== ".." && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/**
 * The nearest existing ancestor of an output path must be a directory that
 * accepts new files (probed with a file created and removed at once).
 */
async function existingAncestor(p: GivenPath): Promise<void> {
  let dir = dirname(resolve(p.path));
  for (;;) {
    let info: Deno.FileInfo | null = null;
    try {
      info = await Deno.stat(dir);
    } catch (error) {
      // A directory above what a narrowed run may read: the write decides.
      if (error instanceof Deno.errors.NotCapable) return;
      if (!(error instanceof Deno.errors.NotFound)) {
        throw new UsageError(`${shown(p)}: ${dir} ${fsProblem(error)}`);
      }
    }
    if (info !== null) {
      if (!info.isDirectory) {
        throw new UsageError(`${shown(p)}: ${dir} is a file; expected a directory in the path`);
      }
      const probe = join(dir, `.gatelab-probe-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`);
      try {
        await Deno.writeFile(probe, new Uint8Array(), { createNew: true });
      } catch (error) {
        const why = error instanceof Deno.errors.NotFound
          ? "does not accept new files"
          : fsProblem(error);
        throw new UsageError(
          `${
            shown(p)
          } cannot be written: ${dir} ${why} (outputs are built beside --out, in this directory)`,
        );
      }
      await Deno.remove(probe).catch(() => {});
      return;
    }
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/** `--cache <dir>` as the commands that read runs take it (see {@linkcode cacheOption}). */
export interface CacheOption {
  /** The cache as an input `--out` must not contain; empty without `--cache`. */
  readonly inputs: readonly GivenPath[];
  /** `{ cacheDir }` for `validateGates`, or `{}` without `--cache`. */
  readonly options: { readonly cacheDir?: string };
  /** Checks the cache directory: a directory written into (not replaced), or a new path. */
  check(): Promise<void>;
}

/**
 * Reads `--cache <dir>` once for every command that takes it: the input
 * list for the `--out` check, the `validateGates` option and the check of
 * the cache directory itself.
 *
 * @param value The option's value, or `undefined` when it was not given.
 * @returns See {@linkcode CacheOption}.
 *
 * @example
 * ```ts
 * import { cacheOption } from "./paths.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(cacheOption(".cache").options, { cacheDir: ".cache" });
 * deepEqual(cacheOption(undefined).inputs, []);
 * ```
 */
export function cacheOption(value: string | undefined): CacheOption {
  if (value === undefined) return { inputs: [], options: {}, check: () => Promise.resolve() };
  const given = { label: "--cache", path: value };
  return {
    inputs: [given],
    options: { cacheDir: value },
    check: () => cacheDir(given),
  };
}

/**
 * The run cache: a directory or a new path. Whether it can be written is
 * not checked: a cache that cannot be written is a `cache_unwritable`
 * warning and the run goes on uncached, and a read-only cache still
 * serves its hits.
 */
async function cacheDir(p: GivenPath): Promise<void> {
  const info = await lstatOrNull(p);
  if (info !== null && !info.isDirectory) {
    throw new UsageError(`${shown(p)} is a file; expected a directory for the run cache`);
  }
}
