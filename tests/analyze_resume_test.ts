/**
 * outputDirIssues reads only the header of a previous contributions.json:
 * same baseline passes whatever follows, another baseline or estimator or
 * an unreadable header is refused.
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { outputDirIssues } from "../lib/analyze/resume.ts";
import { ESTIMATOR } from "../lib/analyze/types.ts";
import { tempDir } from "./fixtures.ts";

const baseline = { run_id: "bare", run_dir: "bare", sha256: "aa" };

Deno.test("outputDirIssues: the header decides, whatever follows it", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "contributions.json");
  const header = (sha: string, name: string) =>
    `{"format": "gatelab.contributions/v1", "estimator": ${
      JSON.stringify({ ...ESTIMATOR, name })
    }, "baseline": {"run_id": "bare", "sha256": "${sha}"}, "gates": [], "tasks": [`;
  // 4 MB of tasks, cut short: never read, so never refused.
  const tail = '{"task_id": "t"},'.repeat(250_000);
  await Deno.writeTextFile(file, header("aa", ESTIMATOR.name) + tail);
  deepEqual(await outputDirIssues(dir.path, baseline), []);

  await Deno.writeTextFile(file, header("bb", ESTIMATOR.name) + tail);
  deepEqual((await outputDirIssues(dir.path, baseline)).map((i) => [i.code, i.path]), [
    ["baseline_changed", "baseline.sha256"],
  ]);
  await Deno.writeTextFile(file, header("aa", "ols_with_intercept") + tail);
  deepEqual((await outputDirIssues(dir.path, baseline)).map((i) => [i.code, i.path]), [
    ["baseline_changed", "estimator"],
  ]);
  await Deno.writeTextFile(file, '{"format": "gatelab.contributions/v1", "estimator": {"name": ');
  deepEqual((await outputDirIssues(dir.path, baseline)).map((i) => i.message), [
    "Cannot overwrite the output directory: its contributions.json is not readable JSON, so it cannot be shown to come from the same baseline",
  ]);
});
