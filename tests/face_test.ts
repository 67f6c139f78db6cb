/**
 * lib/mod.ts is a small, explicit public face: these tests pin its function
 * names and its per-stage namespaces (a new name is a deliberate change of
 * the face; at most 80 value exports at its top), and check that every
 * notebook call (`gl.<name>` or `gl.<stage>.<name>`) and every name the
 * README and docs import from lib/mod.ts is one of them. Kernels and helpers are imported by path from
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
  "computeRewards",
  "loadGroups",
  "loadSteps",
  "loadStudyDir",
  // sequential, ladder, history: in their namespaces (NAMESPACES)
  // SQL
  "loadIntoDuckDb",
  "openDuckDb",
  "readSqlSources",
  "studyStepDirs",
  "sqlTables",
  "sqlTablesTable",
  // figures
  "analysisFigures",
  "figureFiles",
  "heldoutFigures",
  "rewardFigures",
  "studyFigures",
  // tables
  "analysisPaperTables",
  "analysisTables",
  "comparisonTables",
  "heldoutTables",
  "powerTables",
  "recipeComparisonTable",
  "recipesTables",
  "studyTables",
  // report, display, paper, demo
  "appendixFiles",
  "appendixSection",
  "displayAll",
  "displayFigure",
  "displaySection",
  "displayTable",
  "generateDemo",
  "metricMeansTable",
  "notebookProgress",
  "queryTable",
  "SqlError",
  "valueOrThrow",
  "writeDemo",
];

/**
 * The per-stage namespaces (lib/face/): each stage's bundle and the functions of its tables,
 * figures and section that no notebook calls by name.
 */
const NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  analyze: [
    "analysisBundle",
    "analyzeSums",
    "coefficientTables",
    "diagnosticsTables",
    "pairedLayout",
    "readSumsTable",
    "selectionTable",
    "SUMS_ANALYSIS_FORMAT",
    "SUMS_FORMAT",
    "sumsColumnNames",
    "sumsTableSql",
  ],
  heldout: [
    "acrossGateRankPoints",
    "acrossGateTable",
    "heldoutBundle",
    "heldoutGainPoints",
    "heldoutSection",
    "heldoutSummaryTable",
    "rankAgreementPlot",
  ],
  power: ["powerBundle", "powerSection"],
  gateb: ["comparisonBundle", "comparisonSection"],
  study: [
    "studyArmsTable",
    "studyBundle",
    "studyComparisonsTable",
    "studyCostsTable",
    "studyPlot",
    "studyRowsFromAnalysis",
    "studySection",
  ],
  reward: ["rewardBundle", "rewardSection", "rewardSummaryTable"],
  sequential: [
    "sequentialBundle",
    "sequentialFigures",
    "sequentialOfGate",
    "sequentialSection",
    "sequentialTables",
  ],
  ladder: ["ladderBundle", "ladderFigures", "ladderSection", "ladderTables"],
  history: ["historyBundle", "historyFigures", "historySection", "historyTables"],
};

const root = new URL("../", import.meta.url);
const exported = Object.keys(face).sort();

Deno.test("lib/mod.ts exports the face's 54 functions, BUNDLES and 9 stage namespaces: 64 values, at most 80 (types aside)", () => {
  const values = [...FACE, "BUNDLES", ...Object.keys(NAMESPACES)].sort();
  deepEqual(exported, values);
  deepEqual(exported.length, 64);
  ok(exported.length <= 80, "at most 80 value exports at the top of lib/mod.ts");
  const top = face as Record<string, unknown>;
  for (const name of FACE) ok(typeof top[name] === "function", `${name} is a function`);
  ok(Array.isArray(face.BUNDLES));
  // Each namespace holds exactly its names, every one a function but the stage's bundle,
  // which is the one BUNDLES lists for that stage.
  for (const [space, names] of Object.entries(NAMESPACES)) {
    const members = top[space] as Record<string, unknown>;
    deepEqual(Object.keys(members).sort(), [...names].sort(), space);
    for (const name of names) {
      if (name.endsWith("Bundle")) {
        ok(face.BUNDLES.some((b) => b.bundle === members[name]), `${space}.${name} is in BUNDLES`);
      } else if (/^[A-Z_]+$/.test(name)) {
        ok(typeof members[name] === "string", `${space}.${name} is a format string`);
      } else ok(typeof members[name] === "function", `${space}.${name} is a function`);
    }
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
      for (const m of text.matchAll(/\bgl\.([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?/g)) {
        used.add(m[1]! in NAMESPACES && m[2] ? `${m[1]}.${m[2]}` : m[1]!);
      }
    }
  }
  // The five notebooks call 48 face functions (studyStepDirs for PROJECT); a name not exported fails here. (53 before the
  // notebooks took each stage's own tables and figures: analysisPaperTables, analysisTables,
  // heldoutTables, heldoutFigures, studyFigures, recipesTables and rewardFigures replace the
  // hand-built coefficientTables()[0], rankAgreementPlot over heldoutGainPoints and
  // acrossGateRankPoints, studyPlot over studyRowsFromAnalysis and the separate summaries.)
  deepEqual(used.size, 48);
  const onFace = (n: string) => {
    const [space, name] = n.split(".");
    return name === undefined ? exported.includes(n) : NAMESPACES[space!]!.includes(name);
  };
  deepEqual([...used].filter((n) => !onFace(n)), []);
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
