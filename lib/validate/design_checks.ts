import type { Issue } from "../core/issue.ts";
import type { DesignColumn } from "../core/types.ts";
import { columnAliases, describeAlias } from "./aliases.ts";
import type { PairedRow } from "./episode_checks.ts";
import { designRank } from "./rank.ts";

/** Input of {@linkcode designChecks}. */
export interface DesignChecksInput {
  /** The pooled design columns. */
  readonly columns: readonly DesignColumn[];
  /** Every gate's rows; rows without a mask are left out of the design. */
  readonly rows: readonly PairedRow[];
  /** Each gate's gate.json and masked manifest.json paths, in gate order. */
  readonly gates: readonly { readonly planFile: string; readonly manifestFile: string }[];
  /** Whether no earlier check found an issue (only then is a design without rows reported). */
  readonly clean: boolean;
}

/**
 * The checks of the pooled design (`not_identifiable`): some rows to pair
 * at all (reported per gate on its manifest's `tasks`, only when nothing
 * else is wrong), every column present in some row, and full column rank,
 * with one issue per dependent column naming the relation to fix
 * ({@linkcode columnAliases}). Issues name gate.json only when there is one gate.
 *
 * @param input Columns, rows, the gates' files, and whether earlier checks were clean.
 * @returns The issues.
 *
 * @example
 * ```ts
 * import { designChecks } from "./design_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const col = (version_id: string) => ({ version_id, slot_id: version_id, chunk_id: version_id, role: "add" as const });
 * const row = (mask: string[]) => ({ gate: 0, episode: { split: "val", task_id: "t", sample_id: 0 }, mask });
 * const issues = designChecks({
 *   columns: [col("a"), col("b")], rows: [row(["a", "b"]), row([]), row(["a", "b"])],
 *   gates: [{ planFile: "g/gate.json", manifestFile: "g/manifest.json" }], clean: true,
 * });
 * deepEqual(issues.map((i) => [i.path, i.message]), [["b", "design matrix has rank 1 of 2 columns (3 rows): b equals a in every row; their effects cannot be told apart"]]);
 * ```
 */
export function designChecks(input: DesignChecksInput): Issue[] {
  const { columns, gates } = input;
  const issues: Issue[] = [];
  const usable = input.rows.filter((r) => r.mask !== null);
  const k = columns.length;
  if (k > 0 && usable.length === 0 && input.clean) {
    // Nothing paired at all (every masked run plans zero tasks): name the
    // manifests, since no row and no trace line is there to point at.
    for (const g of gates) {
      issues.push({
        code: "not_identifiable",
        message:
          `the masked run plans no tasks, so the gate has 0 paired rows and none of its ${k} coefficients can be estimated`,
        file: g.manifestFile,
        path: "tasks",
      });
    }
  }
  if (k === 0 || usable.length === 0) return issues;
  const columnIndex = new Map(columns.map((c, j) => [c.version_id, j]));
  const design = new Uint8Array(usable.length * k);
  usable.forEach((r, i) => {
    for (const v of r.mask!) {
      const j = columnIndex.get(v);
      if (j !== undefined) design[i * k + j] = 1;
    }
  });
  const rank = designRank(design, usable.length, k);
  const planFile = gates.length === 1 ? gates[0]!.planFile : undefined;
  columns.forEach((c, j) => {
    if (rank.presence[j] === 0) {
      issues.push({
        code: "not_identifiable",
        message:
          `version ${c.version_id} is never present in ${usable.length} rows; its coefficient cannot be estimated`,
        ...(planFile ? { file: planFile } : {}),
        path: c.version_id,
      });
    }
  });
  if (rank.rank < k) {
    // One issue per dependent column, naming the relation to fix (lib/validate/aliases.ts).
    const names = columns.map((c) => c.version_id);
    for (const alias of columnAliases(design, usable.length, k, rank.dependent)) {
      issues.push({
        code: "not_identifiable",
        message: `design matrix has rank ${rank.rank} of ${k} columns (${usable.length} rows): ` +
          describeAlias(alias, names) +
          (alias.terms.length > 0 ? "; their effects cannot be told apart" : ""),
        ...(planFile ? { file: planFile } : {}),
        path: names[alias.column]!,
      });
    }
  }
  return issues;
}
