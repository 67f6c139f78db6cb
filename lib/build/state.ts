/**
 * The build state, `<out>/.gatelab-build.json` (docs/FORMAT.md,
 * Extensions: the build state): for every import, step and study-wide
 * output last built, its key and what went into it, and the output it
 * left; and the stat cache of the input files. Written whole, atomically
 * (temporary file, then rename), after each output swap: a build killed in
 * between finds a key that no longer matches and builds that output again.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "npm:zod@4.6.7";
import { OUTPUT_MARKER, writeFileAtomic } from "../core/atomic_write.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { StatCache } from "./input_hashes.ts";

/** The build state's file name inside the output root. */
export const STATE_FILE = ".gatelab-build.json";

/** The output a build left, to tell whether something else replaced it since. */
const OutputSchema = z.strictObject({
  /** Inode of `<out>/<id>` (every swap makes a new directory), null when missing. */
  ino: z.number().nullable(),
  /** sha256 of its `.gatelab-output.json`, null when missing. */
  marker_sha256: z.string().nullable(),
});

/** What went into one output, and the key made of it. */
const RecordSchema = z.strictObject({
  key: z.string(),
  command: z.string(),
  argv: z.array(z.string()),
  options: z.record(z.string(), z.string()),
  /** Input file (relative to the study file's directory) to sha256. */
  inputs: z.record(z.string(), z.string()),
  /** Upstream id to its key. */
  upstream: z.record(z.string(), z.string()),
  code: z.string(),
  output: OutputSchema,
});

const StatEntrySchema = z.strictObject({
  size: z.number(),
  mtime_ms: z.number().nullable(),
  ctime_ms: z.number().nullable(),
  ino: z.number().nullable(),
  sha256: z.string(),
});

/** The schema of `<out>/.gatelab-build.json`. */
export const BuildStateSchema = z.strictObject({
  format: z.literal("gatelab.build-state/v1"),
  study: z.string(),
  /** Imports and steps by id. */
  steps: z.record(z.string(), RecordSchema),
  /** The study-wide outputs (tables, report, paper) by name. */
  assembly: z.record(z.string(), RecordSchema),
  /** Absolute path of an input file to what was last seen there. */
  stat_cache: z.record(z.string(), StatEntrySchema),
});

/** One output's record. */
export type OutputRecord = z.output<typeof RecordSchema>;
/** The fingerprint of an output directory. */
export type OutputFingerprint = z.output<typeof OutputSchema>;

/** The build state in memory. */
export interface BuildState {
  /** The study's name. */
  readonly study: string;
  /** Imports and steps by id. */
  readonly steps: Map<string, OutputRecord>;
  /** The study-wide outputs by name. */
  readonly assembly: Map<string, OutputRecord>;
  /** The stat cache of the input files. */
  readonly statCache: StatCache;
}

/**
 * Reads the build state of an output root; an empty one when there is
 * none, or when it cannot be read or is not a build state (then `note`
 * says so: everything is built again, which is always safe).
 *
 * @example
 * ```ts
 * import { readBuildState, writeBuildState } from "./state.ts";
 * import { equal } from "node:assert/strict";
 * const out = await Deno.makeTempDir();
 * const empty = await readBuildState(out, "s");
 * equal(empty.state.steps.size, 0);
 * await writeBuildState(out, empty.state);
 * equal((await readBuildState(out, "s")).note, undefined);
 * await Deno.writeTextFile(`${out}/.gatelab-build.json`, "{");
 * equal((await readBuildState(out, "s")).note?.startsWith("the build state"), true);
 * await Deno.remove(out, { recursive: true });
 * ```
 */
export async function readBuildState(
  out: string,
  study: string,
): Promise<{ state: BuildState; note?: string }> {
  const empty = (): BuildState => ({
    study,
    steps: new Map(),
    assembly: new Map(),
    statCache: new Map(),
  });
  let text: string;
  try {
    text = await Deno.readTextFile(join(out, STATE_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { state: empty() };
    throw error;
  }
  let parsed;
  try {
    parsed = BuildStateSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    return {
      state: empty(),
      note: `the build state ${join(out, STATE_FILE)} cannot be read; building everything again`,
    };
  }
  const doc = parsed.data;
  return {
    state: {
      study,
      steps: new Map(Object.entries(doc.steps)),
      assembly: new Map(Object.entries(doc.assembly)),
      statCache: new Map(Object.entries(doc.stat_cache)),
    },
  };
}

/** Writes the build state whole and atomically, keys in code-point order. */
export async function writeBuildState(out: string, state: BuildState): Promise<void> {
  const sorted = <T>(map: ReadonlyMap<string, T>) =>
    Object.fromEntries([...map].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  const doc: z.input<typeof BuildStateSchema> = {
    format: "gatelab.build-state/v1",
    study: state.study,
    steps: sorted(state.steps),
    assembly: sorted(state.assembly),
    stat_cache: sorted(state.statCache),
  };
  await writeFileAtomic(join(out, STATE_FILE), `${JSON.stringify(doc, null, 2)}\n`);
}

/**
 * The fingerprint of an output directory now: its inode and the sha256 of
 * its marker (`.gatelab-output.json`), each null when missing.
 */
export async function outputFingerprint(dir: string): Promise<OutputFingerprint> {
  let ino: number | null = null;
  try {
    ino = (await Deno.stat(dir)).ino;
  } catch {
    return { ino: null, marker_sha256: null };
  }
  try {
    const marker = await Deno.readFile(join(dir, OUTPUT_MARKER));
    return { ino, marker_sha256: sha256Hex(marker) };
  } catch {
    return { ino, marker_sha256: null };
  }
}
