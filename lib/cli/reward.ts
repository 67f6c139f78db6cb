/**
 * `deno task gate reward <steps.jsonl> --recipe A|B|C [--prm-weights FILE]
 * [--groups groups.jsonl] [--bootstrap B] [--seed S] --out <dir>`: reward
 * recipes of docs/reward.md. Writes rewards.jsonl,
 * rewards_meta.json and reward tables; with --groups also
 * recipe_comparison.json. All in one atomic step; on input issues only
 * validation.json, exit 2.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { stderrProgress } from "../core/progress.ts";
import { labelScope } from "./label_prefix.ts";
import type { RewardInput } from "../reward/document.ts";
import { rewardFiles } from "../reward/files.ts";
import { loadGroups, loadPrmWeights, loadSteps } from "../reward/load.ts";
import type { Trajectories } from "../reward/rewards.ts";
import { rewardRun } from "../reward/run.ts";
import type { GroupRecord } from "../reward/schema.ts";
import { type ValidationDocument, validationDocument } from "../core/validation_document.ts";
import { parseCommand } from "./args.ts";
import { REWARD } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputFile, outputDir } from "./paths.ts";
import { finish } from "./finish.ts";
import { printError } from "../core/terminal_text.ts";

/** Runs the `reward` command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, REWARD, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const { recipe, bootstrap: draws, seed } = values;
  const stepsPath = positionals[0]!, out = values.out, quiet = values.quiet;
  const weightsPath = values["prm-weights"];
  const scope = labelScope(out, values["label-prefix"]);
  const given = givenFiles(stepsPath, values.groups, weightsPath);
  for (const f of given) await inputFile(f, f.what);
  await outputDir({ label: "--out", path: out }, given);

  const read = await readRewardInputs(stepsPath, values.groups, weightsPath, command);
  // The closing line goes to stderr once the files are written.
  const after: string[] = [];
  const code = await finish({
    out,
    command,
    quiet,
    refusal: read.refusal,
    result: async () => {
      const { trajectories, weights, groups, inputs } = read.ready!;
      const reward = rewardRun(trajectories, recipe, {
        weights,
        groups,
        draws,
        seed,
        weightsPath,
        command,
        inputs,
        ...(quiet ? {} : { onProgress: stderrProgress("recipe bootstrap") }),
      });
      if (!quiet) {
        after.push(
          `reward: recipe ${recipe}, ${reward.lines.length} trajectories; outputs in ${out}/`,
        );
      }
      return { files: await rewardFiles(reward, { scope }), summary: [] };
    },
  });
  for (const line of after) printError(line);
  return code;
}

/** The input files as given, each with what it must be. */
function givenFiles(
  stepsPath: string,
  groupsPath: string | undefined,
  weightsPath: string | undefined,
): { label: string; path: string; what: string }[] {
  return [
    { label: "steps file", path: stepsPath, what: "a steps file (JSONL)" },
    ...(groupsPath !== undefined
      ? [{ label: "--groups", path: groupsPath, what: "a groups file (JSONL)" }]
      : []),
    ...(weightsPath !== undefined
      ? [{ label: "--prm-weights", path: weightsPath, what: "a PRM weights file (JSON)" }]
      : []),
  ];
}

/** The loaded inputs of {@linkcode run}, or the refusal of their issues. */
interface RewardInputs {
  readonly refusal: ValidationDocument | null;
  readonly ready: {
    readonly trajectories: Trajectories;
    readonly weights: Map<string, Map<number, number>> | undefined;
    readonly groups: GroupRecord[] | undefined;
    readonly inputs: RewardInput[];
  } | null;
}

/** Reads the steps, then the PRM weights and groups against them, with their hashes. */
async function readRewardInputs(
  stepsPath: string,
  groupsPath: string | undefined,
  weightsPath: string | undefined,
  command: string,
): Promise<RewardInputs> {
  const steps = await loadSteps(stepsPath);
  if (!steps.ok) return { refusal: validationDocument(steps.issues, command), ready: null };
  const { trajectories } = steps.value;
  const inputs: RewardInput[] = [{ file: stepsPath, sha256: steps.value.sha256 }];
  const issues: Issue[] = [];
  let weights: Map<string, Map<number, number>> | undefined;
  if (weightsPath !== undefined) {
    const loaded = await loadPrmWeights(weightsPath, trajectories);
    if (loaded.ok) {
      weights = loaded.value.weights;
      inputs.push({ file: weightsPath, sha256: loaded.value.sha256 });
    } else issues.push(...loaded.issues);
  }
  let groups: GroupRecord[] | undefined;
  if (groupsPath !== undefined) {
    const loaded = await loadGroups(groupsPath, trajectories);
    if (loaded.ok) {
      groups = loaded.value.groups;
      inputs.push({ file: groupsPath, sha256: loaded.value.sha256 });
    } else issues.push(...loaded.issues);
  }
  if (issues.length > 0) {
    return { refusal: validationDocument(issues, command, inputs), ready: null };
  }
  return { refusal: null, ready: { trajectories, weights, groups, inputs } };
}
