/**
 * X'WX of a 0/1 design through histograms of column-mask bytes, for the
 * bootstrap kernel when tasks far outnumber the histogram bins.
 *
 * The columns are split into groups of 8 (the last may be shorter); a row's
 * mask restricted to group a is a byte b_a. Per draw:
 * - the diagonal block of group a is read from one histogram over b_a
 *   (bin += count): entry (i, j) of the block is the sum of the bins whose
 *   byte has bits i and j set (a superset-sum transform of the histogram);
 * - the cross block of group a and a later column j is read from one
 *   histogram over b_a of the rows where column j is present: entry (i, j)
 *   is the sum of the bins whose byte has bit i set.
 * A row therefore adds its count to (groups + present columns x earlier
 * groups) bins instead of to every pair of its present columns (about 6
 * adds instead of 36 at 16 columns with half present). X'WX is integer, so
 * every order of these sums is exact and the result equals the pair-list
 * sum of {@linkcode ClusterSums} exactly (tests/infer_xtx_hist_test.ts).
 *
 * A task's bins (over all its rows) are listed once with their
 * multiplicity, like the pair lists; the reduction costs about 5 operations
 * per bin per draw, so {@linkcode xtxHistWins} picks this path only when
 * the bin adds it saves exceed that.
 *
 * @module
 */
import { packedIndex } from "../../math/packed.ts";
import { type ClusterSums, pairListLength } from "./cluster_sums.ts";

/** Histogram layout and per-task bin lists of one design. */
export interface XtxHistPlan {
  /** Bins over all histograms. */
  readonly bins: number;
  /** Per histogram: first bin, number of mask bits (bins = 2^bits). */
  readonly histStart: Int32Array;
  readonly histBits: Int32Array;
  /**
   * Per histogram, its X'X entries: `targetIndex[t]` (packed index) is the
   * superset sum at `targetMask[t]`, for t in `targetStart[h] .. targetStart[h+1]`.
   */
  readonly targetStart: Int32Array;
  readonly targetIndex: Int32Array;
  readonly targetMask: Int32Array;
  /** Task c's bins are `entryBin[entryStart[c] .. entryStart[c+1])`. */
  readonly entryStart: Int32Array;
  readonly entryBin: Int32Array;
  /** Multiplicity of each entry (rows of the task in that bin), or null when all are 1. */
  readonly entryCount: Float64Array | null;
}

/** Cost of the pair-list sum vs the histogram sum, per draw. */
export function xtxHistWins(sums: ClusterSums, plan: XtxHistPlan): boolean {
  const pairCost = pairListLength(sums);
  const histCost = plan.entryStart[sums.clusterCount]! + 5 * plan.bins;
  return histCost < pairCost;
}

/**
 * Builds the histogram plan of `sums` (from its row lists).
 *
 * @param sums Per-task sums.
 * @returns The plan.
 */
export function buildXtxHistPlan(sums: ClusterSums): XtxHistPlan {
  const { k } = sums;
  const groups = Math.ceil(k / 8);
  const groupBits = (a: number) => Math.min(8, k - 8 * a);
  // Histograms: diagonal of group a, then cross (a, j) for each column j of a later group.
  const histStart: number[] = [], histBits: number[] = [];
  const targetStart: number[] = [0], targetIndex: number[] = [], targetMask: number[] = [];
  const diagHist: number[] = [];
  const crossHist = new Int32Array(groups * k).fill(-1);
  let bins = 0;
  const add = (bits: number): number => {
    histStart.push(bins);
    histBits.push(bits);
    bins += 1 << bits;
    return histStart.length - 1;
  };
  for (let a = 0; a < groups; a++) {
    const nb = groupBits(a);
    diagHist.push(add(nb));
    for (let i = 0; i < nb; i++) {
      for (let j = i; j < nb; j++) {
        targetIndex.push(packedIndex(k, 8 * a + i, 8 * a + j));
        targetMask.push((1 << i) | (1 << j));
      }
    }
    targetStart.push(targetIndex.length);
    for (let j = 8 * (a + 1); j < k; j++) {
      crossHist[a * k + j] = add(nb);
      for (let i = 0; i < nb; i++) {
        targetIndex.push(packedIndex(k, 8 * a + i, j));
        targetMask.push(1 << i);
      }
      targetStart.push(targetIndex.length);
    }
  }
  const lists = entryLists(sums, { histStart, diagHist, crossHist, bins });
  return {
    bins,
    histStart: Int32Array.from(histStart),
    histBits: Int32Array.from(histBits),
    targetStart: Int32Array.from(targetStart),
    targetIndex: Int32Array.from(targetIndex),
    targetMask: Int32Array.from(targetMask),
    ...lists,
  };
}

/** Where a row's mask bytes fall: each histogram's first bin, by group and by column. */
interface BinLayout {
  readonly histStart: readonly number[];
  readonly diagHist: readonly number[];
  /** Cross histogram of group a and column j at `a * k + j` (-1: none). */
  readonly crossHist: Int32Array;
  readonly bins: number;
}

/**
 * Each task's bins over its rows (in the order first touched, each once with its
 * multiplicity), in two passes: the lengths, then the lists, so the lists are typed arrays
 * from the start. Growing lists of numbers held 53 MB each at 1,000,000 tasks and 16
 * columns (6.6 bins a task), left to the collector, which rarely runs while the bootstrap's
 * WebAssembly works: in each thread, for the whole bootstrap.
 */
function entryLists(
  sums: ClusterSums,
  layout: BinLayout,
): Pick<XtxHistPlan, "entryStart" | "entryBin" | "entryCount"> {
  const { k, clusterCount: g, rowCluster, rowColStart, rowCol } = sums;
  const { histStart, diagHist, crossHist, bins } = layout;
  const groups = Math.ceil(k / 8);
  // Rows of each task (counting sort by task, rows in row order).
  const n = rowCluster.length;
  const start = new Int32Array(g + 1);
  for (let i = 0; i < n; i++) {
    const c = rowCluster[i]!;
    start[c + 1] = start[c + 1]! + 1;
  }
  for (let c = 0; c < g; c++) start[c + 1] = start[c + 1]! + start[c]!;
  const fill = start.slice(0, g);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = rowCluster[i]!;
    order[fill[c]!] = i;
    fill[c] = fill[c]! + 1;
  }
  // Each row's bins; a task's bins merged with multiplicities (bins of byte 0 add nothing).
  const mult = new Float64Array(bins);
  const touched = new Int32Array(bins);
  const bytes = new Int32Array(groups);
  /** Task c's bins into touched[0 .. returned), their multiplicities in mult. */
  const taskBins = (c: number): number => {
    let count = 0;
    const bump = (bin: number) => {
      if (mult[bin] === 0) touched[count++] = bin;
      mult[bin] = mult[bin]! + 1;
    };
    for (let t = start[c]!; t < start[c + 1]!; t++) {
      const row = order[t]!;
      bytes.fill(0);
      const e0 = rowColStart[row]!, e1 = rowColStart[row + 1]!;
      for (let e = e0; e < e1; e++) {
        const j = rowCol[e]!;
        bytes[j >> 3] = bytes[j >> 3]! | (1 << (j & 7));
      }
      for (let a = 0; a < groups; a++) {
        if (bytes[a] !== 0) bump(histStart[diagHist[a]!]! + bytes[a]!);
      }
      for (let e = e0; e < e1; e++) {
        const j = rowCol[e]!;
        for (let a = 0; a < j >> 3; a++) {
          if (bytes[a] !== 0) bump(histStart[crossHist[a * k + j]!]! + bytes[a]!);
        }
      }
    }
    return count;
  };
  const entryStart = new Int32Array(g + 1);
  let allOne = true;
  for (let c = 0; c < g; c++) {
    const count = taskBins(c);
    for (let u = 0; u < count; u++) {
      if (mult[touched[u]!] !== 1) allOne = false;
      mult[touched[u]!] = 0;
    }
    entryStart[c + 1] = entryStart[c]! + count;
  }
  const entryBin = new Int32Array(entryStart[g]!);
  const entryCount = allOne ? null : new Float64Array(entryStart[g]!);
  for (let c = 0, e = 0; c < g; c++) {
    const count = taskBins(c);
    for (let u = 0; u < count; u++, e++) {
      const bin = touched[u]!;
      entryBin[e] = bin;
      if (entryCount !== null) entryCount[e] = mult[bin]!;
      mult[bin] = 0;
    }
  }
  return { entryStart, entryBin, entryCount };
}

/**
 * Adds each task's packed counts to its bins: `hist[bin * slots + h] +=
 * packed[c * slots + h]` (times the entry's multiplicity); see
 * {@linkcode scatterPacked}.
 */
export function accumulateHist(
  plan: XtxHistPlan,
  hist: Float64Array,
  packed: Float64Array,
  slots: number,
): void {
  scatterPacked(hist, packed, slots, plan.entryStart, plan.entryBin, plan.entryCount);
}

/**
 * Adds each task's packed counts to the entries it lists (CSR: task c's
 * entries are `index[start[c] .. start[c+1])`): `acc[index[e] * slots + h]
 * += multiplicity[e] x packed[c * slots + h]`, multiplicity 1 when null.
 * Tasks not drawn in any lane (all packed slots 0) are skipped. Every value
 * is an integer below the packing bound, so any order of the adds is exact;
 * the histogram bins and the per-task pair lists of X'WX both go through it.
 */
export function scatterPacked(
  acc: Float64Array,
  packed: Float64Array,
  slots: number,
  start: Int32Array,
  index: Int32Array,
  multiplicity: Float64Array | null,
): void {
  const g = start.length - 1;
  if (multiplicity === null && slots === 2) {
    for (let c = 0; c < g; c++) {
      const v0 = packed[2 * c]!, v1 = packed[2 * c + 1]!;
      if (v0 + v1 === 0) continue;
      for (let e = start[c]!, end = start[c + 1]!; e < end; e++) {
        const b = index[e]! << 1;
        acc[b] = acc[b]! + v0;
        acc[b + 1] = acc[b + 1]! + v1;
      }
    }
  } else if (multiplicity === null && slots === 4) {
    for (let c = 0; c < g; c++) {
      const o = 4 * c;
      const v0 = packed[o]!, v1 = packed[o + 1]!, v2 = packed[o + 2]!, v3 = packed[o + 3]!;
      if (v0 + v1 + v2 + v3 === 0) continue;
      for (let e = start[c]!, end = start[c + 1]!; e < end; e++) {
        const b = index[e]! << 2;
        acc[b] = acc[b]! + v0;
        acc[b + 1] = acc[b + 1]! + v1;
        acc[b + 2] = acc[b + 2]! + v2;
        acc[b + 3] = acc[b + 3]! + v3;
      }
    }
  } else {
    for (let c = 0; c < g; c++) {
      let any = 0;
      for (let h = 0; h < slots; h++) any += packed[c * slots + h]!;
      if (any === 0) continue;
      for (let e = start[c]!, end = start[c + 1]!; e < end; e++) {
        const b = index[e]! * slots;
        const w = multiplicity === null ? 1 : multiplicity[e]!;
        for (let h = 0; h < slots; h++) acc[b + h] = acc[b + h]! + w * packed[c * slots + h]!;
      }
    }
  }
}

/**
 * Reads X'WX from the histograms: slot h's packed entry q goes to
 * `acc[q * slots + h]`; every entry is written. Zeroes `hist` for the next block.
 */
export function reduceHist(
  plan: XtxHistPlan,
  hist: Float64Array,
  slots: number,
  acc: Float64Array,
  scratch: Float64Array,
): void {
  const { histStart, histBits, targetStart, targetIndex, targetMask } = plan;
  const hists = histStart.length;
  for (let h = 0; h < slots; h++) {
    for (let t = 0; t < hists; t++) {
      const size = 1 << histBits[t]!;
      const base = histStart[t]!;
      for (let s = 0; s < size; s++) scratch[s] = hist[(base + s) * slots + h]!;
      // Superset sums: scratch[s] = sum of the bins whose byte contains s.
      for (let bit = 1; bit < size; bit <<= 1) {
        for (let s = 0; s < size; s++) {
          if ((s & bit) === 0) scratch[s] = scratch[s]! + scratch[s | bit]!;
        }
      }
      for (let u = targetStart[t]!, end = targetStart[t + 1]!; u < end; u++) {
        acc[targetIndex[u]! * slots + h] = scratch[targetMask[u]!]!;
      }
    }
  }
  hist.fill(0);
}
