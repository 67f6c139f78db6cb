/**
 * The study-wide outputs of `gate build` (lib/build/assembly_seam.ts):
 * `<out>/tables/` (every step's tidy tables stacked), `<out>/report/`
 * (one report of every step) and `<out>/paper/` (one `\input` per step,
 * an appendix and a skeleton paper). docs/build.md, "The study's tables,
 * report and paper".
 *
 * @module
 */
import { join } from "node:path";
import type { FileContents } from "../../core/atomic_write.ts";
import type { StudyLayout } from "../assembly_types.ts";
import { stepFacts } from "./step_facts.ts";
import { STEP_COMMAND_NAMES } from "../command_options.ts";
import { shownPath } from "../resolve.ts";
import { studyTableFiles as tableFiles, type TidyStep } from "./study_tables.ts";
import { BUNDLES } from "../../report/bundles.ts";
import { studyPaperFiles as paperFiles } from "./study_paper.ts";

export { stackTables, stepTidyTables, type TidyStep } from "./study_tables.ts";
export { appendixTex, mainTex, type PaperClass, stepFloats, stepTex } from "./study_paper.ts";
export { type StepFacts, stepFacts } from "./step_facts.ts";

/** The built steps of a layout, with their facts, in study order. */
function builtSteps(layout: StudyLayout) {
  return layout.steps.filter((s) => s.ok).map((s) => ({
    step: s,
    facts: stepFacts(s.id, join(layout.out, s.id), s.inputs),
  }));
}

/**
 * The bundle of the command a step runs (the one whose `commands` names it,
 * in BUNDLES): its stage and the tidy tables it declares; undefined for
 * `report` and `notebook`, which have none.
 */
function stepBundle(command: string): TidyStep["bundle"] {
  const bundle = BUNDLES.find((b) => b.bundle.commands.includes(command))?.bundle;
  return bundle && { stage: bundle.stage, tidy: bundle.tidy };
}

/** The files of `<out>/tables/`: each step's tidy tables, as its command's bundle declares them. */
export function studyTableFiles(layout: StudyLayout): Promise<Record<string, FileContents>> {
  return tableFiles(
    layout.name,
    builtSteps(layout).map(({ step, facts }) => {
      const bundle = stepBundle(step.command);
      return bundle === undefined ? { facts } : { facts, bundle };
    }),
  );
}

/** The files of `<out>/paper/`. */
export function studyPaperFiles(layout: StudyLayout): Promise<Record<string, FileContents>> {
  const steps = builtSteps(layout).map(({ step, facts }) => ({
    facts,
    title: step.title ?? `${step.command} ${step.id}`,
  }));
  return paperFiles(layout.name, steps, layout.paper === false ? "acm" : layout.paper.class);
}

/** The step commands whose outputs `gate report` shows: all but validate, report and notebook. */
const REPORTED = new Set(
  STEP_COMMAND_NAMES.filter((c) => !["validate", "report", "notebook"].includes(c)),
);

/**
 * `gate report` over every built step it can show, in study order, into
 * `<out>/report/`: paths as a user in the current directory types them,
 * as every step's command line has them.
 */
export function studyReportArgs(layout: StudyLayout): string[] {
  const dirs = builtSteps(layout).filter(({ step, facts }) =>
    REPORTED.has(step.command) && facts.result && facts.files.length > 0
  ).map(({ facts }) => facts.dir);
  return [...dirs, "--out", join(layout.out, "report")].map((p) =>
    p.startsWith("--") ? p : shownPath(Deno.cwd(), p)
  );
}
