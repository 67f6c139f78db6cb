/**
 * The trace line of every row's completed masked attempt, for the `run`
 * order of a sequential re-analysis.
 *
 * @module
 */
import type { PairedDataset } from "../core/types.ts";
import { loadRunParts } from "../load/read_run.ts";

/**
 * Reads each gate's masked traces again and returns, for every dataset row,
 * the one-based line of its completed attempt (validation guarantees one).
 *
 * @param dataset A validated dataset (its gates' directories are read).
 * @returns Lines aligned with the dataset's rows.
 * @throws {Error} When a row has no completed attempt (the traces changed since validation).
 */
export async function maskedLines(dataset: PairedDataset): Promise<Int32Array> {
  const byGate: Map<string, number>[] = [];
  for (const gate of dataset.gates) {
    const parts = await loadRunParts(gate.gate_dir);
    const lines = new Map<string, number>();
    for (const a of parts.attempts) {
      if (a.status === "completed") {
        lines.set(`${a.split}\u0000${a.task_id}\u0000${a.sample_id}`, a.line);
      }
    }
    byGate.push(lines);
  }
  return Int32Array.from(dataset.episodes, (e, i) => {
    const line = byGate[dataset.gateIndex[i]!]!.get(
      `${e.split}\u0000${e.task_id}\u0000${e.sample_id}`,
    );
    if (line === undefined) {
      throw new Error(
        `Cannot order by run: no completed masked attempt for ${e.split}/${e.task_id}/${e.sample_id}`,
      );
    }
    return line;
  });
}
