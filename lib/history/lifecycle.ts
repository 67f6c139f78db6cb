/**
 * Chunk lifecycles across the steps of a history: per logical chunk
 * (chunk_id), one entry per step with the version that represents it, its
 * coefficient and interval, its status and the transition from the step
 * before.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { HistoryJson, LifecycleEntrySchema } from "../contract/outputs/history.ts";
import type { HistoryStep, StepVersion } from "./step.ts";

/** One chunk at one step (history.json `chunks.<chunk_id>[step - 1]`): its schema, `LifecycleEntrySchema`, gives the type. */
export type LifecycleEntry = z.output<typeof LifecycleEntrySchema>;

/** Status of a chunk at one step. */
export type LifecycleStatus = LifecycleEntry["status"];

/** What happened to a chunk at a step, relative to the step before. */
export type Transition = LifecycleEntry["transition"];

/** Lifecycles of every chunk, in first-seen order, plus exposure (history.json `chunks` and `exposure`). */
export interface Lifecycles {
  readonly chunks: HistoryJson["chunks"];
  /** Per chunk: steps it entered a gate as part of the skill, and steps it was selected. */
  readonly exposure: HistoryJson["exposure"];
}

/** A version the skill held and did not keep is `retired`; otherwise its selection status. */
const statusOf = (v: StepVersion): LifecycleStatus =>
  v.status !== "selected" && v.retired ? "retired" : v.status;

/**
 * The version that stands for a chunk at one step: the selected one if
 * any, else the version the skill held (`current` or `old`, which is then
 * retired), else the candidate with the highest coefficient.
 */
function representative(versions: readonly StepVersion[]): StepVersion {
  const selected = versions.find((v) => v.status === "selected");
  if (selected) return selected;
  const held = versions.find((v) => v.role === "current" || v.role === "old");
  if (held) return held;
  return [...versions].sort((a, b) => b.estimate - a.estimate)[0]!;
}

/**
 * Builds every chunk's lifecycle. Transitions: `added` (first selected as
 * an ADD candidate, or selected at a chunk's first step), `kept` (selected
 * again, same version), `replaced` (selected under another version: a
 * REWRITE won), `retired` (held by the skill, not selected), `rejected`
 * (a candidate not selected), `re_added` (selected again after a step
 * out of the skill).
 *
 * @param steps The steps in training order.
 * @returns Per chunk one entry or null per step, and exposure counts.
 *
 * @example A chunk added, then replaced by a rewrite, then retired
 * ```ts
 * import { chunkLifecycles } from "./lifecycle.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = (version_id: string, role: "add" | "current" | "old" | "new", status: "selected" | "rewrite_loser" | "non_positive", retired = false) => ({
 *   version_id, slot_id: "s", chunk_id: "s", role, text_sha256: null, estimate: 0.1, se: 0.05,
 *   ci_lower: 0, ci_upper: 0.2, interval: "hc3_normal" as const, status, rank: 1, retired,
 * });
 * const step = (n: number, versions: ReturnType<typeof v>[]) => ({
 *   step: n, gate_ids: [`g${n}`], gate_dirs: [], plan_files: [], checkpoint_id: null, stage: "online" as const,
 *   metric: "reward", budget_k: 2, baseline_sha256: "", bootstrap: null,
 *   source: { kind: "analysis" as const, dirs: [] }, selected: [], versions,
 * });
 * const { chunks, exposure } = chunkLifecycles([
 *   step(1, [v("s.v1", "add", "selected")]),
 *   step(2, [v("s.v1", "old", "rewrite_loser", true), v("s.v2", "new", "selected")]),
 *   step(3, [v("s.v2", "current", "non_positive", true)]),
 * ]);
 * deepEqual(chunks.s!.map((e) => [e!.version_id, e!.status, e!.transition]), [
 *   ["s.v1", "selected", "added"], ["s.v2", "selected", "replaced"], ["s.v2", "retired", "retired"],
 * ]);
 * deepEqual(exposure.s, { steps_in_skill: 2, steps_selected: 2 });
 * ```
 */
export function chunkLifecycles(steps: readonly HistoryStep[]): Lifecycles {
  const order: string[] = [];
  const byChunk = new Map<string, (LifecycleEntry | null)[]>();
  steps.forEach((step, t) => {
    const groups = new Map<string, StepVersion[]>();
    for (const v of step.versions) {
      if (!groups.has(v.chunk_id)) groups.set(v.chunk_id, []);
      groups.get(v.chunk_id)!.push(v);
    }
    for (const [chunk, versions] of groups) {
      if (!byChunk.has(chunk)) {
        byChunk.set(chunk, Array(steps.length).fill(null));
        order.push(chunk);
      }
      const entries = byChunk.get(chunk)!;
      const rep = representative(versions);
      const status = statusOf(rep);
      let previous: LifecycleEntry | null = null;
      let everSelected = false;
      for (let s = t - 1; s >= 0; s--) {
        const e = entries[s];
        if (e && previous === null && s === t - 1) previous = e;
        if (e && e.status === "selected") everSelected = true;
      }
      let transition: Transition;
      if (status === "retired") transition = "retired";
      else if (status !== "selected") transition = "rejected";
      else if (previous !== null && previous.status === "selected") {
        transition = previous.version_id === rep.version_id ? "kept" : "replaced";
      } else transition = everSelected ? "re_added" : "added";
      entries[t] = {
        step: step.step,
        version_id: rep.version_id,
        role: rep.role,
        estimate: rep.estimate,
        se: rep.se,
        ci_lower: rep.ci_lower,
        ci_upper: rep.ci_upper,
        interval: rep.interval,
        status,
        rank: rep.rank,
        transition,
        others: versions.filter((v) => v !== rep).map((v) => ({
          version_id: v.version_id,
          role: v.role,
          estimate: v.estimate,
          status: statusOf(v),
        })),
      };
    }
  });
  const chunks: Record<string, readonly (LifecycleEntry | null)[]> = {};
  const exposure: Record<string, { steps_in_skill: number; steps_selected: number }> = {};
  for (const chunk of order) {
    const entries = byChunk.get(chunk)!;
    chunks[chunk] = entries;
    let inSkill = 0, selected = 0;
    steps.forEach((step) => {
      if (
        step.versions.some((v) =>
          v.chunk_id === chunk && (v.role === "current" || v.role === "old")
        )
      ) inSkill++;
    });
    for (const e of entries) if (e?.status === "selected") selected++;
    exposure[chunk] = { steps_in_skill: inSkill, steps_selected: selected };
  }
  return { chunks, exposure };
}
