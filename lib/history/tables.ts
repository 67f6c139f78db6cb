/**
 * Markdown/LaTeX tables of a history: the lifecycle grid (chunk x step)
 * and the internalization screen.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import {
  COEFFICIENT,
  formatCount,
  formatEstimate,
  formatInterval,
  formatWithInterval,
  intervalHeader,
  statusLabel,
} from "../table/format.ts";
import type { HistoryDocument } from "./document.ts";

/** A version id shown beside its chunk: `v2` for `chunk.v2`, else the whole id. */
function versionLabel(chunk: string, versionId: string): string {
  return versionId.startsWith(`${chunk}.`) ? versionId.slice(chunk.length + 1) : versionId;
}

/**
 * The lifecycle table, in long form so that it fits a paper's page: one
 * row per chunk and step where the chunk was a candidate, with the
 * version, its status, its coefficient and interval (the interval on a
 * second line in LaTeX) and the transition; the chunk is named on its
 * first row. The steps' checkpoints are listed in a note; exposure is
 * {@linkcode exposureTable}.
 *
 * @param doc history.json.
 * @returns The table.
 */
export function lifecycleTable(doc: HistoryDocument): Table {
  const rows: string[][] = [];
  for (const [chunk, entries] of Object.entries(doc.chunks)) {
    let first = true;
    entries.forEach((e, i) => {
      if (e === null) return;
      const ci: [number, number] | null = e.ci_lower === null || e.ci_upper === null
        ? null
        : [e.ci_lower, e.ci_upper];
      rows.push([
        first ? chunk : "",
        formatCount(doc.steps[i]?.step ?? i + 1),
        versionLabel(chunk, e.version_id),
        statusLabel(e.status),
        // Markdown prints the break as a space: `0.108 [0.042, 0.175]`.
        ci === null
          ? formatEstimate(e.estimate)
          : `${formatEstimate(e.estimate)}\n${formatInterval(ci)}`,
        e.transition,
      ]);
      first = false;
    });
  }
  return {
    caption: `Chunk lifecycles across ${doc.steps.length} steps (${doc.metric})`,
    label: "tab:history-lifecycles",
    columns: [
      { label: "chunk" },
      { label: "step", align: "right" },
      { label: "version" },
      { label: "status" },
      { label: intervalHeader(COEFFICIENT, "see note"), align: "right" },
      { label: "transition" },
    ],
    rows,
    notes: [
      "Steps: " +
      doc.steps.map((s) => `${s.step} = ${s.checkpoint_id ?? s.gate_ids.join("+")}`).join("; ") +
      ".",
      "A chunk has a row for every step where it was a candidate.",
      `Interval: ${doc.conventions.interval}`,
    ],
  };
}

/**
 * Exposure per chunk: the number of steps it was in the skill and was
 * selected.
 *
 * @param doc history.json.
 * @returns The table.
 */
export function exposureTable(doc: HistoryDocument): Table {
  return {
    caption: `Exposure across ${doc.steps.length} steps`,
    label: "tab:history-exposure",
    columns: [
      { label: "chunk" },
      { label: "steps in skill", align: "right" },
      { label: "steps selected", align: "right" },
    ],
    rows: Object.keys(doc.chunks).map((chunk) => [
      chunk,
      formatCount(doc.exposure[chunk]!.steps_in_skill),
      formatCount(doc.exposure[chunk]!.steps_selected),
    ]),
  };
}

/**
 * The internalization screen table.
 *
 * @param doc history.json.
 * @returns The table.
 */
export function internalizationTable(doc: HistoryDocument): Table {
  return {
    caption: "Internalization screen (descriptive): coefficient trend while selected",
    label: "tab:history-internalization",
    columns: [
      { label: "chunk" },
      { label: "version" },
      { label: "steps" },
      { label: `${COEFFICIENT}s by step` },
      { label: intervalHeader("slope", "normal"), align: "right" },
      { label: "flagged" },
    ],
    rows: doc.internalization.map((r) => [
      r.chunk_id,
      versionLabel(r.chunk_id, r.version_id),
      r.steps.join(", "),
      r.estimates.map((e) => formatEstimate(e)).join(", "),
      formatWithInterval(r.slope, r.slope_ci),
      r.flagged ? "yes" : "no",
    ]),
    notes: [doc.conventions.internalization.trend, doc.conventions.internalization.note],
  };
}

/**
 * Every table `gate history` writes (history.md/.tex), in order: lifecycles,
 * exposure, the internalization screen.
 *
 * @param doc history.json.
 * @returns Three tables.
 *
 * @example
 * ```ts
 * import { historyTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { metric: "reward", steps: [{ step: 1, gate_ids: ["g"], checkpoint_id: "c1" }], chunks: {}, exposure: {},
 *   internalization: [], conventions: { interval: "i", lineage: "l", status: "s",
 *     internalization: { window: "w", trend: "t", flagged: "f", note: "n" } } };
 * // deno-lint-ignore no-explicit-any
 * deepEqual(historyTables(doc as any).map((t) => t.label), ["tab:history-lifecycles", "tab:history-exposure", "tab:history-internalization"]);
 * ```
 */
export function historyTables(doc: HistoryDocument): Table[] {
  return [lifecycleTable(doc), exposureTable(doc), internalizationTable(doc)];
}
