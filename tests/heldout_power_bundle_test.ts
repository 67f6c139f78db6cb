/**
 * The held-out and power bundles (lib/heldout, lib/power): their
 * pure `files(doc)` give the very bytes `gate heldout` and `gate plan-power`
 * write (the commands only parse, check paths and hand those files to
 * finish()), and the report section and figures read a parsed heldout.json
 * as it is (its zod-inferred type, no cast).
 *
 * Reference numbers: the analytic SE of the power plan is the closed form
 * s^2 / (N p (1 - p)) * (1 - p / (1 - p + M p)) (docs/inference.md), worked
 * out by hand for N = 120, M = 6, p = 0.5, s = 0.2: 0.04 / 30 * (1 - 0.5 /
 * 3.5) = 0.00114286, square root 0.0338062.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { validationReport } from "../lib/validate/document.ts";
import {
  heldoutDocument,
  heldoutFigures,
  heldoutFiles,
  heldoutSection,
  readHeldoutPlan,
} from "../lib/heldout/mod.ts";
import { planPower, powerDocument, powerFiles, powerSection } from "../lib/power/mod.ts";
import { HeldoutSchema, PowerSchema } from "../lib/contract/outputs/mod.ts";
import { runScope } from "../lib/table/run_scope.ts";
import { quiet, tempDir } from "./fixtures.ts";
import { sameAsWritten } from "./file_bytes.ts";

const GATE_A = "data/demo/ckpt-a/gate-a";
const ROUND_1 = "data/demo/ckpt-b/gate-online-r1";
const PLAN = "data/plans/heldout-kfold5.json";

const silently = (args: string[]): Promise<number> => quiet(() => main(args));

Deno.test("heldoutFiles: the bytes gate heldout writes, file by file (Gate A against round 1)", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "heldout-a");
  const args = ["heldout", GATE_A, "--plan", PLAN, "--against", ROUND_1, "--out", out];
  equal(await silently(args), 0);

  const command = ["gate", ...args].join(" ");
  const validation = await validateGates([GATE_A]);
  const later = await validateGates([ROUND_1]);
  const plan = await readHeldoutPlan(PLAN);
  ok(plan.ok && validation.dataset && later.dataset);
  const inputs = [...validation.inputs, ...later.inputs];
  const doc = heldoutDocument({
    command,
    dataset: validation.dataset,
    plan: plan.value,
    planFile: { path: PLAN, bytes: await Deno.readFile(PLAN) },
    inputs,
    later: later.dataset,
  });
  const files = await heldoutFiles(doc, {
    scope: runScope(out),
    validation: validationReport({ ...validation, inputs }, command),
  });
  await sameAsWritten(files, out);
  deepEqual(Object.keys(files), [
    "validation.json",
    "heldout.json",
    "heldout.md",
    "heldout.tex",
    "splits.csv",
    "splits.parquet",
  ]);
  // 5 folds x 20 repeats, one row each (the tidy CSV is a one-shot iterable, read above: read
  // the file); the table is scoped by the --out name.
  const csv = await Deno.readTextFile(join(out, "splits.csv"));
  equal(csv.trimEnd().split("\n").length, 1 + 100);
  ok((files["heldout.tex"] as string).includes("\\label{tab:heldout-a:heldout-across-gates}"));
  deepEqual([doc.splits.length, doc.against?.shared.length], [100, 6]);
});

Deno.test("powerFiles: the bytes gate plan-power writes; the analytic SE is the closed form", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "power");
  const design = ["--tasks", "120", "--columns", "6", "--p-present", "0.5", "--resid-sd", "0.2"];
  const args = ["plan-power", ...design, "--sims", "40", "--seed", "3", "--out", out, "--quiet"];
  equal(await silently(args), 0);

  const plan = planPower({ tasks: 120, columns: 6, pPresent: 0.5, residSd: 0.2 }, {
    sims: 40,
    seed: 3,
  });
  const doc = powerDocument({
    command: ["gate", ...args].join(" "),
    from: null,
    inputs: [],
    effects: null,
    plan,
  });
  const files = await powerFiles(doc, { scope: runScope(out) });
  await sameAsWritten(files, out);
  equal(doc.analytic.se_beta.toFixed(7), "0.0338062");
  ok((files["power.md"] as string).includes("| SE of a coefficient, analytic | 0.034 |"));
});

Deno.test("heldoutSection and powerSection read the parsed documents as they are", async () => {
  await using dir = await tempDir();
  const heldoutOut = join(dir.path, "h"), powerOut = join(dir.path, "p");
  const plan = join(dir.path, "plan.json");
  await Deno.writeTextFile(
    plan,
    JSON.stringify({
      format: "gatelab.heldout-plan/v1",
      scheme: "split_half",
      repeats: 3,
      seed: 2,
    }),
  );
  equal(
    await silently(["heldout", GATE_A, "--plan", plan, "--against", ROUND_1, "--out", heldoutOut]),
    0,
  );
  equal(
    await silently([
      "plan-power",
      ...["--tasks", "80", "--columns", "4", "--p-present", "0.4", "--resid-sd", "0.3"],
      ...["--sims", "20", "--out", powerOut],
    ]),
    0,
  );
  const heldout = HeldoutSchema.parse(
    JSON.parse(await Deno.readTextFile(join(heldoutOut, "heldout.json"))),
  );
  const section = heldoutSection(heldout, heldoutOut);
  deepEqual(
    section.items.map((i) => ("svg" in i ? i.name : "label" in i ? i.label : "?")),
    ["tab:heldout", "heldout_gain", "tab:heldout-across-gates", "heldout_rank_agreement"],
  );
  deepEqual(heldoutFigures(heldout).map((f) => f.name), ["heldout_gain", "heldout_rank_agreement"]);
  // Three repeats of a split half: three points, one per split.
  ok(heldoutFigures({ ...heldout, against: null })[0]!.svg.split("<circle").length - 1 === 3);

  const power = PowerSchema.parse(
    JSON.parse(await Deno.readTextFile(join(powerOut, "power.json"))),
  );
  const p = powerSection(power, powerOut);
  deepEqual([p.kind, p.items.length, p.files], ["power", 3, ["power.json"]]);
});
