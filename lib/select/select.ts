/**
 * The gate's selection rule (docs/analysis.md, "Selection"): REWRITE family
 * winners first, then strictly positive top-K of the survivors.
 *
 * @module
 */

import type { DesignColumn, Role } from "../core/types.ts";

/** Status of a version after selection (docs/FORMAT.md section 5). */
export type SelectionStatus =
  | "selected"
  | "rewrite_loser"
  | "non_positive"
  | "budget_excluded"
  | "not_estimable";

/** The decision for one version (one design column). */
export interface SelectionDecision {
  /** Slot of the version. */
  readonly slot_id: string;
  /** The version. */
  readonly version_id: string;
  /** Role of the version in its slot. */
  readonly role: Role;
  /** Coefficient the selection ranks by. */
  readonly alpha: number;
  /** Place among the survivors ordered by alpha (1 = highest); null for rewrite losers. */
  readonly rank: number | null;
  /** Outcome of the selection for this version. */
  readonly status: SelectionStatus;
  /** True for a `current` or `old` version that is not selected. */
  readonly retired: boolean;
}

/** Result of {@linkcode selectVersions}. */
export interface Selection {
  /** Selected version ids in rank order. */
  readonly selected: string[];
  /** One decision per column, in column order. */
  readonly decisions: SelectionDecision[];
}

/**
 * A selection rule compiled for one column layout: the index-based fast
 * path for bootstrap loops (no allocation per call when `out` is given).
 */
export interface CompiledSelection {
  readonly k: number;
  /**
   * Ranks survivors and writes, for every column, its rank (1-based) or 0
   * for a rewrite loser into `ranks`, and returns the number of selected
   * columns; `order` receives the survivors' column indices in rank order
   * (its first `returned` entries are the selected ones).
   */
  rank(
    alpha: ArrayLike<number>,
    budgetK: number,
    ranks: Int32Array,
    order: Int32Array,
  ): { survivors: number; selected: number };
}

/** Options of {@linkcode compileSelection} and {@linkcode selectVersions}. */
export interface SelectionOptions {
  /**
   * Tie tolerance tau >= 0 (absolute, in the coefficients' unit): two
   * coefficients within tau are tied, and a coefficient at most tau is not
   * positive. Pass the solve's rounding bound (lib/fit
   * `coefficientTolerance`) so that rounding never decides a tie or a sign.
   * @default {0} (exact comparisons)
   */
  readonly tolerance?: number;
  /**
   * Columns whose variance is not estimable (lib/fit `varianceUndefinedColumns`
   * of the full-data fit): never a survivor, so never ranked or selected
   * (`selectVersions` gives them status `not_estimable`); a REWRITE family
   * picks its winner among its other versions.
   * @default {[]}
   */
  readonly notEstimable?: readonly number[];
}

/**
 * Compiles the selection rule for a column layout.
 *
 * Families: the columns of one slot that holds an `old` or `new` version
 * form a REWRITE replacement family; its winner is the highest alpha, a tie
 * with `old` keeps `old`, and a tie between `new` versions keeps the
 * smallest version_id. Every other column is its own survivor. Survivors
 * are ordered by alpha, highest first; equal alphas are ordered by
 * version_id (code-unit order), so the result never depends on column order.
 *
 * "Equal" means within the tolerance tau: in a family, alpha_a beats
 * alpha_b only when alpha_a - alpha_b > tau; survivors are sorted by alpha,
 * and every run of neighbours whose consecutive gaps are at most tau is one
 * tie group, ordered by version_id; a survivor is selected only when its
 * alpha exceeds tau.
 *
 * @param columns The design columns.
 * @param options The tie tolerance.
 * @returns The compiled rule.
 * @throws {RangeError} When two columns share a version_id.
 *
 * @example
 * ```ts
 * import { compileSelection } from "./select.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rule = compileSelection([
 *   { version_id: "a", slot_id: "a", chunk_id: "a", role: "add" },
 *   { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" },
 * ]);
 * const ranks = new Int32Array(2), order = new Int32Array(2);
 * deepEqual(rule.rank([0.1, 0.3], 1, ranks, order), { survivors: 2, selected: 1 });
 * deepEqual([...ranks], [2, 1]);
 * ```
 */
export function compileSelection(
  columns: readonly DesignColumn[],
  options: SelectionOptions = {},
): CompiledSelection {
  const k = columns.length;
  const tau = options.tolerance ?? 0;
  if (!(tau >= 0 && Number.isFinite(tau))) {
    throw new RangeError(`Cannot compile selection: tolerance ${tau} is not a finite number >= 0`);
  }
  const ids = columns.map((c) => c.version_id);
  if (new Set(ids).size !== k) {
    throw new RangeError("Cannot compile selection: version ids are not unique");
  }
  // Tie order: position of the version id in code-unit order.
  const byId = ids.map((_, j) => j).sort((
    a,
    b,
  ) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const idOrder = new Int32Array(k);
  byId.forEach((j, pos) => (idOrder[j] = pos));
  // Families: slots containing old/new roles.
  const familySlots = new Set(
    columns.filter((c) => c.role === "old" || c.role === "new").map((c) => c.slot_id),
  );
  const members = new Map<string, number[]>();
  const familyOf = new Int32Array(k).fill(-1);
  const families: Int32Array[] = [];
  columns.forEach((c, j) => {
    if (!familySlots.has(c.slot_id)) return;
    const list = members.get(c.slot_id) ?? [];
    list.push(j);
    members.set(c.slot_id, list);
  });
  for (const list of members.values()) {
    for (const j of list) familyOf[j] = families.length;
    families.push(Int32Array.from(list));
  }
  const isOld = Uint8Array.from(columns, (c) => (c.role === "old" ? 1 : 0));
  const excluded = new Uint8Array(k);
  for (const j of options.notEstimable ?? []) excluded[j] = 1;
  const survivorScratch = new Int32Array(k);

  /** true when column a beats column b inside a family. */
  const beatsInFamily = (alpha: ArrayLike<number>, a: number, b: number): boolean => {
    const da = alpha[a]!, db = alpha[b]!;
    if (Math.abs(da - db) > tau) return da > db;
    if (isOld[a] !== isOld[b]) return isOld[a] === 1;
    return idOrder[a]! < idOrder[b]!;
  };

  return {
    k,
    rank(alpha, budgetK, ranks, order) {
      if (alpha.length !== k) {
        throw new RangeError(`Cannot select: ${alpha.length} coefficients for ${k} columns`);
      }
      for (let j = 0; j < k; j++) {
        if (Number.isNaN(alpha[j]!)) {
          throw new RangeError(`Cannot select: coefficient of ${ids[j]} is NaN`);
        }
      }
      let s = 0;
      for (let j = 0; j < k; j++) if (familyOf[j] === -1 && !excluded[j]) survivorScratch[s++] = j;
      for (const fam of families) {
        let best = -1;
        for (let m = 0; m < fam.length; m++) {
          const j = fam[m]!;
          if (excluded[j]) continue;
          if (best === -1 || beatsInFamily(alpha, j, best)) best = j;
        }
        if (best !== -1) survivorScratch[s++] = best;
      }
      // Insertion sort by (alpha desc, version id asc): k is small (<= a few dozen).
      for (let a = 1; a < s; a++) {
        const j = survivorScratch[a]!;
        let b = a - 1;
        while (b >= 0) {
          const other = survivorScratch[b]!;
          const before = alpha[other]! > alpha[j]! ||
            (alpha[other] === alpha[j] && idOrder[other]! < idOrder[j]!);
          if (before) break;
          survivorScratch[b + 1] = other;
          b--;
        }
        survivorScratch[b + 1] = j;
      }
      if (tau > 0) {
        // Tie groups: maximal runs whose consecutive gaps are <= tau, each ordered by version id;
        // a group never spans the sign threshold tau, so the positive survivors stay first.
        let start = 0;
        for (let r = 1; r <= s; r++) {
          const prev = alpha[survivorScratch[r - 1]!]!;
          const next = r === s ? 0 : alpha[survivorScratch[r]!]!;
          const gapBreak = r === s || prev - next > tau || (prev > tau && !(next > tau));
          if (!gapBreak) continue;
          for (let a = start + 1; a < r; a++) {
            const j = survivorScratch[a]!;
            let b = a - 1;
            while (b >= start && idOrder[survivorScratch[b]!]! > idOrder[j]!) {
              survivorScratch[b + 1] = survivorScratch[b]!;
              b--;
            }
            survivorScratch[b + 1] = j;
          }
          start = r;
        }
      }
      ranks.fill(0, 0, k);
      let selected = 0;
      for (let r = 0; r < s; r++) {
        const j = survivorScratch[r]!;
        order[r] = j;
        ranks[j] = r + 1;
        if (r < budgetK && alpha[j]! > tau) selected++;
      }
      return { survivors: s, selected };
    },
  };
}

/**
 * Applies the gate's selection rule to one set of coefficients.
 *
 * A REWRITE family (slot with `old`/`new` versions) first picks its winner:
 * highest alpha; a tie keeps `old` (a tie among `new` versions keeps the
 * smallest version_id). Losers are `rewrite_loser` with rank null and never
 * use budget. Survivors (plain chunks and winners) are ranked by alpha,
 * highest first, ties by version_id. `selected` = strictly positive alpha
 * within the top `budgetK`; the budget is never filled with non-positive
 * versions. `retired` marks a `current` or `old` version that is not
 * selected.
 *
 * @param columns Design columns (version, slot, chunk, role).
 * @param alpha Coefficient of every column, same order.
 * @param budgetK Active skill budget K >= 0.
 * @param options The tie tolerance (see {@linkcode SelectionOptions}).
 * @returns Selected ids in rank order and one decision per column.
 * @throws {RangeError} On length mismatch, duplicate ids, NaN alpha or a bad K.
 *
 * @example A tie keeps old; a negative chunk is not used to fill the budget
 * ```ts
 * import { selectVersions } from "./select.ts";
 * import { deepEqual } from "node:assert/strict";
 * const columns = [
 *   { version_id: "s1@old", slot_id: "s1", chunk_id: "c1", role: "old" as const },
 *   { version_id: "s1@new", slot_id: "s1", chunk_id: "c1b", role: "new" as const },
 *   { version_id: "c2", slot_id: "c2", chunk_id: "c2", role: "add" as const },
 * ];
 * const out = selectVersions(columns, [0.2, 0.2, -0.1], 2);
 * deepEqual(out.selected, ["s1@old"]);
 * deepEqual(out.decisions.map((d) => d.status), ["selected", "rewrite_loser", "non_positive"]);
 * ```
 */
export function selectVersions(
  columns: readonly DesignColumn[],
  alpha: ArrayLike<number>,
  budgetK: number,
  options: SelectionOptions = {},
): Selection {
  if (!(Number.isInteger(budgetK) && budgetK >= 0)) {
    throw new RangeError(`Cannot select: budget ${budgetK} is not a non-negative integer`);
  }
  const k = columns.length;
  const rule = compileSelection(columns, options);
  const skip = new Set(options.notEstimable ?? []);
  const tau = options.tolerance ?? 0;
  const ranks = new Int32Array(k);
  const order = new Int32Array(k);
  const { selected } = rule.rank(alpha, budgetK, ranks, order);
  const selectedIds = Array.from(order.subarray(0, selected), (j) => columns[j]!.version_id);
  const decisions = columns.map((c, j): SelectionDecision => {
    const a = alpha[j]!;
    const rank = ranks[j]! === 0 ? null : ranks[j]!;
    const status: SelectionStatus = skip.has(j)
      ? "not_estimable"
      : rank === null
      ? "rewrite_loser"
      : !(a > tau)
      ? "non_positive"
      : rank <= budgetK
      ? "selected"
      : "budget_excluded";
    return {
      slot_id: c.slot_id,
      version_id: c.version_id,
      role: c.role,
      alpha: a,
      rank,
      status,
      retired: (c.role === "current" || c.role === "old") && status !== "selected",
    };
  });
  return { selected: selectedIds, decisions };
}
