/**
 * gatelab: re-analysis of randomized skill-validation gates.
 *
 * The public face for notebooks and scripts: the functions a notebook cell
 * calls, in pipeline order (load and validate, analyze, bootstrap, held-out,
 * power, compare, study, reward, sequential, ladder, history, SQL, figures,
 * tables, report, display), and the types their signatures name. Each
 * stage's bundle (`BUNDLES`, lib/report/bundles.ts) and the functions of its
 * tables, figures and report section that no notebook calls by name sit in
 * a namespace per stage: `analyze`, `heldout`, `power`, `gateb`, `study`,
 * `reward`, `sequential`, `ladder`, `history` (e.g.
 * `gl.sequential.sequentialTables(doc)`, `gl.heldout.heldoutBundle`). Kernels
 * and helpers are not part of it:
 * import them by path from their stage folder, `lib/<stage>/mod.ts` (for
 * example `lib/fit/mod.ts` for the OLS kernels, `lib/contract/mod.ts` for the
 * zod schemas of the data contract). Types inferred from those schemas (run
 * manifests, gate plans, study and step records, parsed output files) are
 * documented by their schemas and docs/FORMAT.md, not in these API docs.
 *
 * @example Validate the demo's Gate A, analyze it, read the selection
 * ```ts
 * import { analyzeDataset, datasetOrThrow, validateGates } from "./mod.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const validation = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const dataset = datasetOrThrow(validation, "Gate A");
 * const analysis = analyzeDataset(dataset, { command: "example" });
 * deepEqual([dataset.n, dataset.k, analysis.selection.selected.length], [400, 14, 10]);
 * ```
 *
 * @module
 */

// load and validate
export { datasetOrThrow, validateGates } from "./validate/mod.ts";
export { validationInputsTable, validationSummaryTable } from "./validate/mod.ts";
export type { GateValidation, ValidateGatesOptions, ValidationInput } from "./validate/mod.ts";
export { formatIssue, writeFilesAtomic } from "./core/mod.ts";
export type {
  FileValue,
  IntervalType,
  Issue,
  PairedDataset,
  ProgressCallback,
  Result,
  WriteOptions,
} from "./core/mod.ts";

// analyze
export { analyzeDataset, runAnalysis } from "./analyze/mod.ts";
// past one machine: sums tables an engine computes (the functions: gl.analyze.analyzeSums, ...)
export type {
  SumsAnalysisDocument,
  SumsAnalysisOptions,
  SumsGateDeclaration,
  SumsLayout,
  SumsSqlOptions,
  SumsTable,
} from "./analyze/mod.ts";
export type {
  Analysis,
  AnalyzeOptions,
  BootstrapDraws,
  RunAnalysisOptions,
} from "./analyze/mod.ts";
// gate analysis: its tables and figures (the notebooks' names)
export {
  analysisFigures,
  analysisPaperTables,
  analysisTables,
  metricMeansTable,
} from "./analyze/mod.ts";
export type {
  AnalysisFigureInputs,
  AnalysisPaperTablesInput,
  AnalysisTables,
  AnalysisTablesInput,
  CheckpointTablesInput,
  CoefficientTableInput,
  DeltaInput,
  ForestInput,
  SelectionTableInput,
} from "./analyze/mod.ts";
export type { TidyColumn, TidyKind, TidyTable } from "./tidy/mod.ts";

// bootstrap, diagnostics, held-out, power
export { againstLaterGate, heldoutCheck, readHeldoutPlan } from "./heldout/mod.ts";
export { bootstrapDataset, misfitDiagnostics } from "./infer/mod.ts";
export { planPower, powerInputsFromContributions } from "./power/mod.ts";
export type { AcrossGateCheck, HeldoutPlan, HeldoutResult } from "./heldout/mod.ts";
export type {
  BootstrapOptions,
  BootstrapResult,
  InteractionScreenOptions,
  MisfitDiagnostics,
  TaskBootstrapOptions,
} from "./infer/mod.ts";
export type {
  PowerDesign,
  PowerFromInput,
  PowerInputs,
  PowerPlan,
  SimulatePowerOptions,
} from "./power/mod.ts";

// compare (Gate B)
export { compareRunDirs, comparisonTables } from "./gateb/mod.ts";
export type {
  CompareOptions,
  ComparisonDocument,
  ComparisonOutput,
  ComparisonTableInput,
} from "./gateb/mod.ts";

// study
export { analyzeStudy, loadStudyDir, studyFigures, studyTables } from "./study/mod.ts";
export type {
  AnalyzeStudyOptions,
  LoadedStudy,
  StudyAnalysis,
  StudyAnalysisRowsInput,
  StudyCostInput,
  StudyDocument,
  StudyInput,
  StudyPlotOptions,
  StudyRow,
  StudyRowsInput,
  StudyTablesInput,
} from "./study/mod.ts";

// reward
export {
  compareRecipes,
  computeRewards,
  loadGroups,
  loadSteps,
  recipeComparisonTable,
  recipesTables,
  rewardFigures,
} from "./reward/mod.ts";
export type {
  CompareRecipesOptions,
  Recipe,
  RecipeComparisonDocument,
  RecipeComparisonEntry,
  RecipeComparisonResult,
  RecipeComparisonTableInput,
  RewardLine,
  Trajectories,
} from "./reward/mod.ts";

// sequential, ladder, history: their tables, figures and sections are in the namespaces below
export type { SequentialDocument, SequentialOptions, SequentialOrder } from "./sequential/mod.ts";
export type { LadderResultDocument } from "./ladder/mod.ts";
export type { HistoryDocument } from "./history/mod.ts";

// a built study's outputs by step id (PROJECT = "gatelab.yaml" in a notebook)
export { studyStepDirs } from "./build/mod.ts";

// SQL (DuckDB starts only when openDuckDb is called)
export {
  loadIntoDuckDb,
  openDuckDb,
  readSqlSources,
  SqlError,
  sqlTables,
  sqlTablesTable,
} from "./sql/mod.ts";
export type {
  DuckDb,
  LoadOptions,
  OutputTableName,
  QueryResult,
  ReadSourcesOptions,
  SqlErrorCode,
  SqlOptions,
  SqlOutput,
  SqlSources,
  SqlTableInfo,
} from "./sql/mod.ts";

// figures
export { figureFiles } from "./figures/mod.ts";
export { heldoutFigures } from "./heldout/mod.ts";
export type {
  Figure,
  FigureFilesOptions,
  PaperFigure,
  RankAgreementOptions,
  RankPoint,
} from "./figures/mod.ts";

// tables
export { heldoutTables } from "./heldout/mod.ts";
export { powerTables } from "./power/mod.ts";
export type { NamedColumn, Table } from "./table/mod.ts";

// report and display (notebooks)
export {
  displayAll,
  displayFigure,
  displaySection,
  displayTable,
  notebookProgress,
  queryTable,
  valueOrThrow,
} from "./report/mod.ts";
export type {
  Displayable,
  DisplayTableOptions,
  NotebookProgressOptions,
  QueryTableOptions,
} from "./report/mod.ts";

// paper appendix
export { appendixFiles, appendixSection } from "./paper/mod.ts";
export type { AppendixOptions, AppendixSection } from "./paper/mod.ts";

// demo data
export { generateDemo, writeDemo } from "./demo/mod.ts";

// every stage's bundle, in the report's order; one namespace per stage
export { BUNDLES } from "./report/mod.ts";
export type {
  AnalysisOutputs,
  InputProvenance,
  OutputSlot,
  RegisteredBundle,
} from "./report/mod.ts";
export type { AnyBundle, Bundle, BundleFile, BundleRead, OutputSchema } from "./table/mod.ts";
export * from "./face/mod.ts";

// Types the results and options above contain, so that every type a face
// signature reaches is documented (`deno doc --lint lib/mod.ts`).
export type {
  AnalysisWarning,
  CoefficientOutput,
  ContributionsOutput,
  DiagnosticsOutput,
  ESTIMATOR,
  GateRef,
  MetricOutput,
  SelectionOutput,
  TaskRow,
} from "./analyze/mod.ts";
export type {
  Attempt,
  CheckpointInfo,
  CONTRACT_CODES,
  DesignColumn,
  EpisodeKey,
  EXTENSION_CODES,
  FileContents,
  GateInfo,
  IssueCode,
  Role,
  RunRef,
} from "./core/mod.ts";
export type { View } from "./contract/mod.ts";
export type { Timings } from "./core/timings.ts";
export type { CovType, OlsFit } from "./fit/mod.ts";
export type { ComparedQuantity, ComparedRow } from "./gateb/mod.ts";
export type { JUPYTER_DISPLAY, JupyterBroadcaster } from "./report/mod.ts";
export type {
  AmceRow,
  BootstrapJson,
  BootstrapKernelResult,
  CoefficientBootstrap,
  InteractionPair,
  InteractionScreen,
  JointInteractionTest,
  ResidualByCount,
  SelectionStability,
  VersionStability,
} from "./infer/mod.ts";
export type {
  HeldoutGainInput,
  HeldoutSplit,
  HeldoutStatistic,
  HeldoutSummaryInput,
  StatSummary,
} from "./heldout/mod.ts";
export type { SimulatedPower } from "./power/mod.ts";
export type { JsonlRecord, LoadedRun } from "./load/mod.ts";
export type {
  ReportSection,
  ReportSubheading,
  RunScope,
  SectionKind,
  TableColumn,
  TableNote,
} from "./table/mod.ts";
export type { MaskReason, RecipeComparison, VerdictMode } from "./reward/mod.ts";
export type { SelectionDecision, SelectionStatus } from "./select/mod.ts";
export type { QueryColumn, SqlGate } from "./sql/mod.ts";
export type {
  ArmCost,
  ArmGrid,
  ArmResult,
  ATTEMPT_KINDS,
  AttemptKind,
  AttemptTally,
  ComparisonResult,
  InputFile,
  Resample,
  Resolution,
  ResolvedSlot,
  SlotStatus,
  TrainSeed,
} from "./study/mod.ts";
export type { RunCacheStatus } from "./validate/mod.ts";
