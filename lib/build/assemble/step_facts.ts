/**
 * What the study-wide outputs read of one built step: the files its
 * output marker lists, and the gate, checkpoint and round it is about,
 * from the gate directories it reads (`gate.json`'s `gate_id`, the bare
 * run's `provenance.checkpoint_id`, the round an import's `import.json`
 * gives the gate). A step over several gates has a gate of null, and a
 * checkpoint only when all of its gates share one.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { OUTPUT_MARKER } from "../../core/atomic_write.ts";

/** One step of a built study as the assembly reads it. */
export interface StepFacts {
  /** The step's id (its output is `<out>/<id>/`). */
  readonly id: string;
  /** Its output directory, absolute. */
  readonly dir: string;
  /** The files its output lists (relative to `dir`), in the marker's order. */
  readonly files: readonly string[];
  /** Whether its output is a result (false: a refusal's report, as `expect: refused` steps write). */
  readonly result: boolean;
  /** The one gate it reads, else null. */
  readonly gate: string | null;
  /** The checkpoint of the gates it reads, when they share one, else null. */
  readonly checkpoint_id: string | null;
  /** The round of the one gate it reads, as its import names it, else null. */
  readonly round: string | null;
}

/** A JSON file's value, or undefined when it is absent or not JSON. */
function readJson(path: string): unknown {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

/** A record's string field, or null. */
function text(value: unknown, key: string): string | null {
  if (value === null || typeof value !== "object") return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === "string" ? v : null;
}

/** The round an import's import.json gives the gate at `dir` (up to three folders above it). */
function importRound(dir: string): string | null {
  let at = dir;
  for (let up = 0; up < 3; up++) {
    at = dirname(at);
    const doc = readJson(join(at, "import.json"));
    const gates = (doc as { gates?: unknown } | undefined)?.gates;
    if (!Array.isArray(gates)) continue;
    const gate = gates.find((g) =>
      typeof text(g, "dir") === "string" && resolve(at, text(g, "dir")!) === dir
    );
    return gate === undefined ? null : text(gate, "round");
  }
  return null;
}

/** A gate directory's id, checkpoint and round; null when `dir` holds no gate.json. */
function gateFacts(
  dir: string,
): { gate: string; checkpoint: string | null; round: string | null } | null {
  const gate = readJson(join(dir, "gate.json"));
  const id = text(gate, "gate_id");
  if (id === null) return null;
  const bare = text(gate, "bare_run_dir");
  const manifest = bare === null ? undefined : readJson(join(resolve(dir, bare), "manifest.json"));
  const provenance = (manifest as { provenance?: unknown } | undefined)?.provenance;
  return { gate: id, checkpoint: text(provenance, "checkpoint_id"), round: importRound(dir) };
}

/**
 * The facts of a built step.
 *
 * @param id The step's id.
 * @param dir Its output directory.
 * @param inputs The paths it reads, absolute.
 * @returns Its facts.
 *
 * @example
 * ```ts
 * import { stepFacts } from "./step_facts.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gate = `${Deno.cwd()}/data/demo/ckpt-a/gate-a`;
 * const facts = stepFacts("gate-a", "/nowhere", [gate]);
 * deepEqual([facts.gate, facts.checkpoint_id, facts.round, facts.files, facts.result],
 *   ["gate-a", "qwen3.5-4b-sft@rev-8d2f1c0", null, [], true]);
 * ```
 */
export function stepFacts(id: string, dir: string, inputs: readonly string[]): StepFacts {
  const marker = readJson(join(dir, OUTPUT_MARKER)) as
    | { files?: unknown; ok?: unknown }
    | undefined;
  const files = Array.isArray(marker?.files)
    ? marker.files.filter((f) => typeof f === "string")
    : [];
  const gates = inputs.map(gateFacts).filter((g) => g !== null);
  const checkpoints = [...new Set(gates.map((g) => g.checkpoint))];
  const one = gates.length === 1 ? gates[0]! : null;
  return {
    id,
    dir,
    files,
    result: marker?.ok !== false,
    gate: one?.gate ?? null,
    checkpoint_id: checkpoints.length === 1 ? checkpoints[0]! : null,
    round: one?.round ?? null,
  };
}
