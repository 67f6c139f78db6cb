/**
 * A study as one file: the study file's schema and parse
 * (`gatelab.yaml`), its resolution into imports and steps with their
 * command lines and dependencies, the graph, the keys and the build state
 * that `gate build` (lib/cli/build.ts) runs on (docs/build.md).
 *
 * @module
 */
export {
  type CommandFact,
  commandFact,
  type OptionFact,
  type OptionRole,
  STEP_COMMAND_NAMES,
  STUDY_COMMANDS,
} from "./command_options.ts";
export {
  PAPER_CLASSES,
  parseStudyFile,
  STUDY_ID,
  type StudyEntry,
  type StudyFile,
  StudyFileSchema,
  type WrittenOption,
  type WrittenValue,
} from "./study_file.ts";
export {
  cycles,
  reservedIds,
  type ResolveContext,
  resolveStudy,
  shownPath,
  type Study,
  type StudyNode,
} from "./resolve.ts";
export {
  downstreamOf,
  graphDot,
  graphMermaid,
  type GraphNode,
  graphText,
  withUpstream,
} from "./graph.ts";
export { fileHashes, inputFiles, type StatCache, type StatEntry } from "./input_hashes.ts";
export { type NodePlan, type PlanFacts, type PlanNode, planNodes } from "./plan.ts";
export {
  type BuildState,
  BuildStateSchema,
  type OutputFingerprint,
  outputFingerprint,
  type OutputRecord,
  readBuildState,
  STATE_FILE,
  writeBuildState,
} from "./state.ts";
export { checkOutRoot } from "./out_root.ts";
export { STUDY_ASSEMBLY, type StudyAssembly, type StudyLayout } from "./assembly_seam.ts";
export { isStudyFile, studyOutputDirs, studyStepDirs } from "./study_dirs.ts";
