/**
 * lib/mod.ts is a small, explicit public face: these tests pin its function
 * names (a new name is a deliberate change of the face), and check that every
 * notebook call (`gl.<name>`) and every name the README and docs import from
 * lib/mod.ts is one of them. Kernels and helpers are imported by path from
 * lib/<stage>/mod.ts instead. `deno doc --lint lib/mod.ts` (in `deno task
 * check`) keeps every export and every type it reaches documented.
 */
import { deepEqual, ok } from "node:assert/strict";
import * as face from "../lib/mod.ts";

const FACE = [
  // load and validate
  "datasetOrThrow",
  "formatIssue",
  "validateGates",
  "validationInputsTable",
  "validationSummaryTable",
  "writeFilesAtomic",
  // analyze, bootstrap, diagnostics, held-out, power
  "againstLaterGate",
  "analyzeDataset",
  "bootstrapDataset",
  "heldoutCheck",
  "misfitDiagnostics",
  "planPower",
  "powerInputsFromContributions",
  "readHeldoutPlan",
  "runAnalysis",
  // compare, study, reward
  "analyzeStudy",
  "compareRecipes",
  "compareRunDirs",
  "comparisonSection",
  "computeRewards",
  "loadGroups",
  "loadSteps",
  "rewardSection",
  "loadStudyDir",
  "studySection",
  // sequential, ladder, history
  "historyFigures",
  "historySection",
  "historyTables",
  "ladderFigures",
  "ladderSection",
  "ladderTables",
  "sequentialFigures",
  "sequentialOfGate",
  "sequentialSection",
  "sequentialTables",
  // SQL
  "loadIntoDuckDb",
  "openDuckDb",
  "readSqlSources",
  "studyStepDirs",
  "sqlTables",
  "sqlTablesTable",
  // figures
  "acrossGateRankPoints",
  "analysisFigures",
  "figureFiles",
  "heldoutFigures",
  "heldoutGainPoints",
  "rankAgreementPlot",
  "rewardFigures",
  "studyFigures",
  "studyPlot",
  "studyRowsFromAnalysis",
  // tables
  "acrossGateTable",
  "analysisPaperTables",
  "analysisTables",
  "coefficientTables",
  "comparisonTables",
  "diagnosticsTables",
  "heldoutSummaryTable",
  "heldoutTables",
  "powerTables",
  "recipeComparisonTable",
  "recipesTables",
  "rewardSummaryTable",
  "selectionTable",
  "studyArmsTable",
  "studyComparisonsTable",
  "studyCostsTable",
  "studyTables",
  // report, display, paper, demo
  "appendixFiles",
  "appendixSection",
  "displayAll",
  "displayFigure",
  "displaySection",
  "displayTable",
  "generateDemo",
  "heldoutSection",
  "metricMeansTable",
  "notebookProgress",
  "powerSection",
  "queryTable",
  "SqlError",
  "valueOrThrow",
  "writeDemo",
];

const root = new URL("../", import.meta.url);
const exported = Object.keys(face).sort();

Deno.test("lib/mod.ts exports exactly the face's 83 functions (types aside)", () => {
  deepEqual(exported, [...FACE].sort());
  deepEqual(exported.length, 83);
  for (const name of exported) {
    ok(typeof (face as Record<string, unknown>)[name] === "function", `${name} is a function`);
  }
});

Deno.test("every gl.<name> a notebook calls is on the face", async () => {
  const used = new Set<string>();
  for await (const entry of Deno.readDir(new URL("notebooks/", root))) {
    if (!entry.name.endsWith(".ipynb")) continue;
    const nb = JSON.parse(await Deno.readTextFile(new URL(`notebooks/${entry.name}`, root)));
    for (const cell of nb.cells as { cell_type: string; source: string | string[] }[]) {
      if (cell.cell_type !== "code") continue;
      const text = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      for (const m of text.matchAll(/\bgl\.([A-Za-z_$][\w$]*)/g)) used.add(m[1]!);
    }
  }
  // The five notebooks call 48 face functions (studyStepDirs for PROJECT); a name not exported fails here. (53 before the
  // notebooks took each stage's own tables and figures: analysisPaperTables, analysisTables,
  // heldoutTables, heldoutFigures, studyFigures, recipesTables and rewardFigures replace the
  // hand-built coefficientTables()[0], rankAgreementPlot over heldoutGainPoints and
  // acrossGateRankPoints, studyPlot over studyRowsFromAnalysis and the separate summaries.)
  deepEqual(used.size, 48);
  deepEqual([...used].filter((n) => !exported.includes(n)), []);
});

Deno.test("names the README and docs import from lib/mod.ts are on the face", async () => {
  const files = ["README.md"];
  for await (const entry of Deno.readDir(new URL("docs/", root))) {
    if (entry.name.endsWith(".md")) files.push(`docs/${entry.name}`);
  }
  const imported: string[] = [];
  for (const file of files.sort()) {
    const text = await Deno.readTextFile(new URL(file, root));
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(?:\.\.?\/)+lib\/mod\.ts"/g)) {
      for (const part of m[1]!.split(",")) {
        const name = part.trim().replace(/^type\s+/, "");
        if (name) imported.push(`${file}: ${name}`);
      }
    }
  }
  deepEqual(imported.filter((i) => !exported.includes(i.split(": ")[1]!)), []);
  ok(imported.includes("README.md: validateGates"), imported.join("\n"));
});
