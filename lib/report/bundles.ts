/**
 * Every stage's bundle, in one list and in the report's order: `gate
 * report`'s reader (`readAnalysisDir`) reads each registered bundle's
 * document, the report lists their sections in this order (the section
 * kinds' order, {@linkcode SECTION_ORDER}, is the bundles' kinds in turn),
 * and tests/architecture_test.ts checks every bundle's fields and that
 * every stage with a `files.ts` is here. A bundle the report shows also
 * names where its document sits in {@linkcode AnalysisOutputs}.
 *
 * @module
 */
import type { AnyBundle } from "../table/bundle.ts";
import type { SectionKind } from "../table/section.ts";
import { auditCommand } from "../core/audit_command.ts";
import { analysisBundle } from "../analyze/bundle.ts";
import { sequentialBundle } from "../sequential/bundle.ts";
import { historyBundle } from "../history/bundle.ts";
import { heldoutBundle } from "../heldout/bundle.ts";
import { powerBundle } from "../power/bundle.ts";
import { comparisonBundle } from "../gateb/bundle.ts";
import { ladderBundle } from "../ladder/bundle.ts";
import { studyBundle } from "../study/bundle.ts";
import { rewardBundle } from "../reward/bundle.ts";
import { firewallBundle } from "../firewall/bundle.ts";
import { ledgerAuditBundle } from "../ledger_audit/bundle.ts";
import { validateBundle } from "../validate/bundle.ts";
import { importBundle } from "../import/bundle.ts";
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { AnalysisOutputs } from "./analysis_outputs.ts";

/** Where a bundle's document sits in {@linkcode AnalysisOutputs} (bundles the report shows). */
export interface OutputSlot {
  /** The bundle's document in read outputs (null or undefined: the directory has none). */
  readonly get: (outputs: AnalysisOutputs) => unknown;
  /** The fields of the outputs a read document fills (null: the fields of a directory without it). */
  readonly set: (doc: unknown) => Partial<AnalysisOutputs>;
  /** Whether its section is headed "Exploratory (waived: ...)" beside an exploratory analysis. */
  readonly exploratory: boolean;
}

/** One entry of {@linkcode BUNDLES}: a stage's bundle and, when the report shows it, its slot. */
export interface RegisteredBundle {
  /** The stage's bundle (its mod.ts's `<stage>Bundle`). */
  readonly bundle: AnyBundle;
  /** Where the report holds its document; absent: the report does not read it. */
  readonly slot?: OutputSlot;
}

/** A bundle whose document is one field of the outputs. */
function field<K extends keyof AnalysisOutputs>(
  bundle: AnyBundle,
  key: K,
  exploratory = false,
): RegisteredBundle {
  return {
    bundle,
    slot: { get: (o) => o[key], set: (doc) => ({ [key]: doc }), exploratory },
  };
}

/** An audit: validation.json (the `audit` field) when `command` wrote it. */
function audit(bundle: AnyBundle, command: string): RegisteredBundle {
  return {
    bundle,
    slot: {
      get: (o) => (o.audit && auditCommand(o.audit) === command ? o.audit : null),
      set: (doc) => ({ audit: doc as ValidationJson | null }),
      exploratory: false,
    },
  };
}

/**
 * Every stage's bundle, in the report's order: gate analyses (or pooled
 * rounds), sequential re-analyses, history, held-out checks, power plan,
 * Gate B, ladder gates, study, reward recipes, audits; then the outputs the
 * report does not show (`gate validate`, `gate import`).
 *
 * @example
 * ```ts
 * import { BUNDLES } from "./bundles.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(BUNDLES.map((b) => b.bundle.stage).slice(0, 4), ["analyze", "sequential", "history", "heldout"]);
 * deepEqual(BUNDLES.filter((b) => b.slot === undefined).map((b) => b.bundle.file), ["validation.json", "import.json"]);
 * ```
 */
export const BUNDLES: readonly RegisteredBundle[] = [
  {
    bundle: analysisBundle,
    slot: {
      get: (o) =>
        o.contributions || o.selection
          ? { contributions: o.contributions, selection: o.selection }
          : null,
      set: (doc) =>
        (doc ?? { contributions: null, selection: null }) as Pick<
          AnalysisOutputs,
          "contributions" | "selection"
        >,
      exploratory: true,
    },
  },
  field(sequentialBundle, "sequential"),
  field(historyBundle, "history"),
  field(heldoutBundle, "heldout", true),
  field(powerBundle, "power", true),
  field(comparisonBundle, "comparison", true),
  field(ladderBundle, "ladder"),
  field(studyBundle, "study"),
  field(rewardBundle, "reward"),
  audit(firewallBundle, "firewall"),
  audit(ledgerAuditBundle, "ledger-audit"),
  { bundle: validateBundle },
  { bundle: importBundle },
];

/**
 * Section kinds in paper order: each bundle's kinds in {@linkcode BUNDLES}'
 * order (gate analyses, pooled rounds, sequential re-analyses of gates,
 * history across checkpoints, held-out, power, Gate B, ladder gates, study,
 * reward, audits).
 *
 * @example
 * ```ts
 * import { SECTION_ORDER } from "./bundles.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(SECTION_ORDER, ["gate", "pooled", "sequential", "history", "heldout", "power", "gate_b",
 *   "ladder", "study", "reward", "audit"]);
 * ```
 */
export const SECTION_ORDER: readonly SectionKind[] = [
  ...new Set(BUNDLES.flatMap((b) => b.bundle.kind)),
];
