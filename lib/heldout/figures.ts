/**
 * Figures of held-out checks (heldout.json), drawn by the generic
 * {@linkcode rankAgreementPlot} (lib/figures/heldout.ts): predicted against
 * realised gain of the selected set per split, and the ranks of the shared
 * versions on the selecting and on the later gate.
 *
 * @module
 */
import { type Figure } from "../figures/render.ts";
import { rankAgreementPlot, type RankPoint } from "../figures/heldout.ts";
import { formatStatistic } from "../table/format.ts";
import type { AcrossGateCheck, HeldoutSplit } from "./heldout.ts";

/**
 * Predicted against realised gain of the selected set, one point per
 * usable held-out split (label `repeat.fold`), for
 * {@linkcode rankAgreementPlot} with gain axis labels.
 *
 * @param heldout Parsed heldout.json.
 * @returns Points of splits with both gains.
 *
 * @example
 * ```ts
 * import { heldoutGainPoints } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const points = heldoutGainPoints({
 *   splits: [{ repeat: 0, fold: 1, ok: true, gain_predicted: 0.4, gain_realised: 0.2 }] });
 * deepEqual(points, [{ label: "0.1", validation: 0.4, heldOut: 0.2 }]);
 * ```
 */
export function heldoutGainPoints(
  heldout: {
    readonly splits: readonly Pick<
      HeldoutSplit,
      "repeat" | "fold" | "ok" | "gain_predicted" | "gain_realised"
    >[];
  },
): RankPoint[] {
  const out: RankPoint[] = [];
  for (const s of heldout.splits) {
    const p = s.gain_predicted, r = s.gain_realised;
    if (!s.ok || typeof p !== "number" || typeof r !== "number") continue;
    if (!Number.isFinite(p) || !Number.isFinite(r)) continue;
    out.push({ label: `${s.repeat}.${s.fold}`, validation: p, heldOut: r });
  }
  return out;
}

/** Average ranks, 1 = highest value. */
function descendingRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let t = i; t <= j; t++) ranks[order[t]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/**
 * Rank points of a selection checked against a later gate: per shared
 * version its rank (1 = highest coefficient, ties averaged) on the earlier
 * and on the later gate.
 *
 * @param against The `against` block of heldout.json.
 * @returns One point per shared version.
 *
 * @example
 * ```ts
 * import { acrossGateRankPoints } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const points = acrossGateRankPoints({
 *   per_version: [{ version_id: "a", earlier: 0.3, later: 0.1 }, { version_id: "b", earlier: 0.1, later: 0.2 }] });
 * deepEqual(points, [{ label: "a", validation: 1, heldOut: 2 }, { label: "b", validation: 2, heldOut: 1 }]);
 * ```
 */
export function acrossGateRankPoints(
  against: Pick<AcrossGateCheck, "per_version">,
): RankPoint[] {
  const earlier = descendingRanks(against.per_version.map((v) => v.earlier));
  const later = descendingRanks(against.per_version.map((v) => v.later));
  return against.per_version.map((v, i) => ({
    label: v.version_id,
    validation: earlier[i]!,
    heldOut: later[i]!,
  }));
}

/** What {@linkcode heldoutGainFigure} reads of heldout.json: the splits' gains and the plan's metric. */
export interface HeldoutGainInput {
  /** The plan; its metric names the figure. */
  readonly plan: { readonly metric: string };
  /** Every split; those without both gains are left out. */
  readonly splits: readonly Pick<
    HeldoutSplit,
    "repeat" | "fold" | "ok" | "gain_predicted" | "gain_realised"
  >[];
}

/**
 * Predicted against realised gain of the selected set, one dot per usable
 * split (the report's `heldout_gain` figure); null when no split has both gains.
 *
 * @param heldout A parsed heldout.json, or the result of {@linkcode heldoutCheck}.
 * @returns The figure, or null.
 *
 * @example
 * ```ts
 * import { heldoutGainFigure } from "./figures.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const figure = heldoutGainFigure({ plan: { metric: "reward" },
 *   splits: [{ repeat: 0, fold: 1, ok: true, gain_predicted: 0.4, gain_realised: 0.2 }] });
 * deepEqual(figure?.name, "heldout_gain");
 * ok(figure?.title.endsWith("(reward)"));
 * deepEqual(heldoutGainFigure({ plan: { metric: "reward" }, splits: [] }), null);
 * ```
 */
export function heldoutGainFigure(heldout: HeldoutGainInput): Figure | null {
  const gains = heldoutGainPoints(heldout);
  if (gains.length === 0) return null;
  return rankAgreementPlot(gains, {
    name: "heldout_gain",
    showLabels: false,
    title:
      `Held-out splits: predicted vs realised gain of the selected set (${heldout.plan.metric})`,
    axisLabels: ["predicted gain (fit part)", "realised gain (held-out part)"],
  });
}

/**
 * Rank of each shared version on the selecting gate against its rank on the
 * later gate, with the Spearman rho under the title (the report's
 * `heldout_rank_agreement` figure); null when no version is shared.
 *
 * @param against heldout.json's `against`, or the result of {@linkcode againstLaterGate}.
 * @returns The figure, or null.
 *
 * @example
 * ```ts
 * import { acrossGateRankFigure } from "./figures.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const figure = acrossGateRankFigure({ shared: ["a", "b"], spearman_shared: -1,
 *   per_version: [{ version_id: "a", earlier: 0.3, later: 0.1 }, { version_id: "b", earlier: 0.1, later: 0.2 }] });
 * deepEqual(figure?.name, "heldout_rank_agreement");
 * ok(figure?.svg.includes("Spearman -1.00"));
 * ```
 */
export function acrossGateRankFigure(
  against: Pick<AcrossGateCheck, "per_version" | "shared" | "spearman_shared">,
): Figure | null {
  if (against.per_version.length === 0) return null;
  return rankAgreementPlot(acrossGateRankPoints(against), {
    name: "heldout_rank_agreement",
    title: `Rank agreement with the later gate on ${against.shared.length} shared versions`,
    axisLabels: ["rank on the selecting gate", "rank on the later gate"],
    subtitle: `Spearman ${formatStatistic(against.spearman_shared)}`,
  });
}

/**
 * The figures of a held-out check, in report order: the gain figure, then
 * (with a later gate sharing versions) the rank-agreement figure.
 *
 * @param doc A parsed heldout.json (or the document `gate heldout` writes).
 * @returns Zero to two figures.
 *
 * @example
 * ```ts
 * import { heldoutFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const figures = heldoutFigures({ plan: { metric: "reward" }, against: null,
 *   splits: [{ repeat: 0, fold: 0, ok: true, gain_predicted: 0.4, gain_realised: 0.2 },
 *     { repeat: 0, fold: 1, ok: false, gain_predicted: null, gain_realised: null }] });
 * deepEqual(figures.map((f) => f.name), ["heldout_gain"]);
 * ```
 */
export function heldoutFigures(
  doc: HeldoutGainInput & {
    readonly against: Pick<AcrossGateCheck, "per_version" | "shared" | "spearman_shared"> | null;
  },
): Figure[] {
  const gain = heldoutGainFigure(doc);
  const ranks = doc.against ? acrossGateRankFigure(doc.against) : null;
  return [...(gain ? [gain] : []), ...(ranks ? [ranks] : [])];
}
