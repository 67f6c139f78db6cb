/**
 * In-memory inputs for the unit tests of the validation checks
 * (lib/validate/*_checks.ts): parsed manifests from the fixture manifest
 * of tests/fixtures.ts, attempts, assignment lines and episodes.
 *
 * @module
 */
import { type RunManifest, RunManifestSchema } from "../lib/contract/manifest.ts";
import type { Attempt, EpisodeKey } from "../lib/core/types.ts";
import type { LoadedAssignment } from "../lib/load/read_gate.ts";
import { fixtureManifest, type FixtureOptions } from "./fixtures.ts";

/** A parsed run manifest of `tasks` tasks (`t000`, ...), edited by `edit` before parsing. */
export function manifest(
  arm: "bare" | "masked",
  options: FixtureOptions = {},
  // deno-lint-ignore no-explicit-any
  edit: (m: any) => void = () => {},
): RunManifest {
  const m = structuredClone(fixtureManifest(arm, options));
  edit(m);
  return RunManifestSchema.parse(m);
}

/** The episode `val/<task_id>/<sample_id>`. */
export function episode(task_id: string, sample_id = 0): EpisodeKey {
  return { split: "val", task_id, sample_id };
}

/** A completed attempt at `line` with `reward == rewards.r_strict` and `r_success`. */
export function attempt(
  task_id: string,
  line: number,
  fields: Partial<Attempt> = {},
): Attempt {
  const reward = fields.reward === undefined ? 0.5 : fields.reward;
  return {
    ...episode(task_id),
    attempt: 0,
    status: "completed",
    reward,
    rewards: reward === null ? {} : { r_strict: reward, r_success: 0.5 * reward + 0.1 },
    success: null,
    injected: [],
    job_seed: 1000 + line,
    steps: 5,
    tokens: null,
    error: null,
    provenance: null,
    line,
    ...fields,
  };
}

/** An assignment line of `val/<task_id>/0`. */
export function assignment(
  task_id: string,
  line: number,
  slots: Record<string, string | null>,
): LoadedAssignment {
  return { ...episode(task_id), slots, line };
}
