/**
 * What `gate report` reads of an output directory: each registered
 * bundle's document (lib/report/bundles.ts), with the sha256, generator,
 * seed and draws of every file read.
 *
 * @module
 */
import type {
  ComparisonJson,
  ContributionsJson,
  HeldoutJson,
  HistoryJson,
  LadderResultJson,
  PowerJson,
  RecipeComparisonJson,
  SelectionJson,
  SequentialJson,
  StudyJson,
  ValidationJson,
} from "../contract/outputs/mod.ts";

/** What the report records of one input file besides its hash. */
export interface InputProvenance {
  /** `generator.command` (and tool, version) of the file, when it has one. */
  readonly generator: string | null;
  /** The seed of its random numbers (bootstrap, splits, simulation), when any. */
  readonly seed: number | null;
  /** Bootstrap draws or simulated gates, when any. */
  readonly draws: number | null;
}

/** What an analysis directory holds. Every file is optional; at least one must exist. */
export interface AnalysisOutputs {
  /** The directory as given. */
  readonly dir: string;
  /** contributions.json of `gate analyze` (its task rows read from its tasks table). */
  readonly contributions: ContributionsJson | null;
  /** selection.json of `gate analyze`. */
  readonly selection: SelectionJson | null;
  /** study.json of `gate study`. */
  readonly study: StudyJson | null;
  /** heldout.json of `gate heldout`. */
  readonly heldout: HeldoutJson | null;
  /** comparison.json of `gate compare` (Gate B). */
  readonly comparison: ComparisonJson | null;
  /** power.json of `gate plan-power`. */
  readonly power: PowerJson | null;
  /** history.json of `gate history` (absent in outputs made before it existed). */
  readonly history?: HistoryJson | null;
  /** recipe_comparison.json of `gate reward --groups`. */
  readonly reward?: RecipeComparisonJson | null;
  /** sequential.json of `gate sequential`. */
  readonly sequential?: SequentialJson | null;
  /** ladder_result.json of `gate ladder`. */
  readonly ladder?: LadderResultJson | null;
  /** validation.json of `gate ledger-audit` or `gate firewall` (other commands' is not read). */
  readonly audit?: ValidationJson | null;
  /** File name to sha256 of its bytes, in name order. */
  readonly inputs: Readonly<Record<string, string>>;
  /** File name to its generator, seed and draws. */
  readonly provenance?: Readonly<Record<string, InputProvenance>>;
}
