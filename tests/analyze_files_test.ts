/**
 * `analysisFiles` is what `gate analyze` writes: computed in memory from the
 * same analysis, its files are byte for byte the files the command wrote
 * into --out (every file but the lock-merged ledger and the output marker),
 * on the demo's Gate A with a 20-draw bootstrap (so stability.md/.tex are
 * there too). An exploratory run's files drop the selection and mark every
 * table and document; a corrupt ledger is refused, never rewritten.
 */
import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { analysisFiles, ledgerFile } from "../lib/analyze/files.ts";
import { runAnalysis } from "../lib/analyze/analyze.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { validationReport } from "../lib/validate/document.ts";
import { runScope } from "../lib/table/run_scope.ts";
import { GatelabError } from "../lib/core/issue.ts";
import { mergeLedger } from "../lib/select/ledger.ts";
import { quiet, tempDir } from "./fixtures.ts";
import { fileBytes, sameAsWritten } from "./file_bytes.ts";

const GATE = "data/demo/ckpt-a/gate-a";

Deno.test("analysisFiles: the bytes gate analyze writes, every file but the ledger", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "gate-a");
  const code = await quiet(() =>
    main(["analyze", GATE, "--out", out, "--bootstrap", "20", "--seed", "3", "--quiet"])
  );
  equal(code, 0);
  const written = JSON.parse(await Deno.readTextFile(join(out, "contributions.json")));
  const command: string = written.generator.command;
  const validation = await validateGates([GATE]);
  const analysis = await runAnalysis(validation.dataset!, {
    command,
    draws: 20,
    seed: 3,
  });
  const files = await analysisFiles(analysis, {
    dataset: validation.dataset!,
    validation: validationReport(validation, command),
    scope: runScope(out),
  });
  await sameAsWritten(files, out, (name) => name === "ledger.jsonl");
  ok("stability.md" in files && "diagnostics.tex" in files);
});

Deno.test("analysisFiles: exploratory drops the selection and marks tables and documents", async () => {
  const validation = await validateGates([GATE]);
  const analysis = await runAnalysis(validation.dataset!, { draws: 0 });
  const waived = [{ code: "seed_mismatch", message: "m", severity: "warning" }] as const;
  const files = await analysisFiles(analysis, {
    dataset: validation.dataset!,
    validation: validationReport(validation, "gate analyze"),
    scope: runScope("out"),
    waive: ["seed_mismatch"],
    waived,
  });
  const text = async (name: string) => new TextDecoder().decode(await fileBytes(files[name]));
  equal(files["selection.json"], undefined);
  equal(files["selection.csv"], undefined);
  ok((await text("coefficients.md")).includes("EXPLORATORY (waived: seed_mismatch)"));
  const contributions = JSON.parse(await text("contributions.json"));
  deepEqual(
    [contributions.exploratory, contributions.waived_codes, contributions.waived_issues.length],
    [true, ["seed_mismatch"], 1],
  );
  equal(JSON.parse(await text("diagnostics.json")).exploratory, true);
  const v = JSON.parse(await text("validation.json"));
  deepEqual([v.exploratory, v.issues.at(-1).code], [true, "seed_mismatch"]);
  // Without a bootstrap: no stability table, no saved draws even if asked.
  equal(files["stability.md"], undefined);
});

Deno.test("ledgerFile: no ledger merges as an empty one, refuses a corrupt one with its path", async () => {
  const value = ledgerFile([], "runs/ledger.jsonl");
  if (typeof value !== "function") throw new Error("the ledger is merged under the lock");
  // No ledger yet is an empty ledger.
  equal(await value(null), mergeLedger("", []));
  throws(() => value("{not json\n"), (e: unknown) => {
    ok(e instanceof GatelabError);
    deepEqual([e.issues[0]!.code, e.issues[0]!.file], ["parse_error", "runs/ledger.jsonl"]);
    return true;
  });
});
