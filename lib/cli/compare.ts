/**
 * `deno task gate compare --bare <run_dir> --equipped <run_dir> --out <dir>`:
 * Gate B, the frozen selected skill against the bare model on held-out
 * tasks (docs/analysis.md). Refuses runs that differ in more than the skill.
 *
 * Exit codes: 0 ok, 2 input issues (only validation.json is written, into
 * --out or, when --out holds an earlier result, into <out>.failed), 1 crash.
 *
 * @module
 */
import { readOutput, SelectionSchema } from "../contract/outputs/mod.ts";
import { parseCommand, UsageError } from "./args.ts";
import { COMPARE } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputDir, inputFile, outputDir } from "./paths.ts";
import type { Issue } from "../core/issue.ts";
import { validationDocument } from "../core/validation_document.ts";
import { stderrProgress } from "../core/progress.ts";
import { type LoadedRun, readRun } from "../load/read_run.ts";
import { GATE_B_FIELDS, gateBIssues, type GateBPairs, selectionMismatch } from "../gateb/checks.ts";
import { compareRuns } from "../gateb/compare.ts";
import type { ComparisonDocument } from "../gateb/comparison_types.ts";
import { comparisonFiles } from "../gateb/files.ts";
import { labelScope } from "./label_prefix.ts";
import { finish } from "./finish.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, COMPARE, context);
  if (cli === null) return 0;
  const { values, command } = cli;
  const { bare, equipped, out, quiet, bootstrap: draws, seed } = values;
  const scope = labelScope(out, values["label-prefix"]);
  const runs = [{ label: "--bare", path: bare }, { label: "--equipped", path: equipped }];
  for (const r of runs) await inputDir(r, "a run directory (manifest.json, traces.jsonl)");
  const selection = values.selection !== undefined
    ? [{ label: "--selection", path: values.selection }]
    : [];
  for (const s of selection) await inputFile(s, "a Gate A selection.json");
  await outputDir({ label: "--out", path: out }, [...runs, ...selection]);

  const read = await readGateB(bare, equipped, values.selection);
  const validation = validationDocument(read.issues, command, read.inputs);
  const ready = read.ready && validation.ok ? read.ready : null;
  return await finish({
    out,
    command,
    quiet,
    refusal: ready ? null : validation,
    result: async () => {
      const comparison = compareRuns(ready!.bare, ready!.equipped, ready!.pairs, {
        draws,
        seed,
        command,
        checkedFields: GATE_B_FIELDS,
        ...(values.selection !== undefined ? { selectionFile: values.selection } : {}),
        ...(draws > 0 && !quiet ? { onProgress: stderrProgress("bootstrap") } : {}),
      });
      return {
        files: await comparisonFiles(comparison, { validation, scope }),
        ...comparisonLines(comparison, out),
      };
    },
  });
}

/** What {@linkcode readGateB} found: the inputs to record, every issue, and the runs when comparable. */
interface GateBRead {
  readonly inputs: readonly unknown[];
  readonly issues: readonly Issue[];
  readonly ready: { bare: LoadedRun; equipped: LoadedRun; pairs: GateBPairs } | null;
}

/**
 * Reads both runs, refuses swapped arms (a usage error), checks that they
 * differ only in the skill and, with `--selection`, that the equipped
 * skill is the frozen selection.
 */
async function readGateB(
  bare: string,
  equipped: string,
  selectionFile: string | undefined,
): Promise<GateBRead> {
  const [b, e] = await Promise.all([readRun(bare), readRun(equipped)]);
  if (b.ok && e.ok && b.value.manifest.arm === "equipped" && e.value.manifest.arm === "bare") {
    throw new UsageError(
      `--bare ${bare} is an equipped run and --equipped ${equipped} is a bare run (manifest.json arm); swap --bare and --equipped`,
    );
  }
  const inputs = [
    {
      dir: bare,
      kind: "bare",
      ...(b.ok ? { run_id: b.value.manifest.run_id, sha256: b.value.sha256 } : {}),
    },
    {
      dir: equipped,
      kind: "equipped",
      ...(e.ok ? { run_id: e.value.manifest.run_id, sha256: e.value.sha256 } : {}),
    },
  ];
  const issues: Issue[] = [...b.issues, ...e.issues];
  if (!b.ok || !e.ok) return { inputs, issues, ready: null };
  const checked = gateBIssues(b.value, e.value);
  issues.push(...checked.issues);
  if (selectionFile !== undefined) {
    issues.push(...(await frozenSelectionIssues(e.value, selectionFile)));
  }
  const ready = checked.pairs === null
    ? null
    : { bare: b.value, equipped: e.value, pairs: checked.pairs };
  return { inputs, issues, ready };
}

/** The per-metric lines (unless --quiet) and the `ok:` line of a comparison. */
function comparisonLines(
  comparison: ComparisonDocument,
  out: string,
): { details: string[]; summary: string[] } {
  const details = Object.entries(comparison.metrics).map(([m, q]) =>
    `  ${m.padEnd(18)} bare ${fmt(q.bare)}  equipped ${fmt(q.equipped)}  diff ${
      fmt(q.difference)
    }  CI ${q.ci ? `[${fmt(q.ci[0])}, ${fmt(q.ci[1])}]` : "—"}`
  );
  const r = comparison.metrics.reward!;
  return {
    details,
    summary: [
      `ok: ${comparison.n_pairs} paired episodes, ${comparison.n_tasks} tasks; reward ${
        fmt(r.equipped)
      } vs ${fmt(r.bare)} (diff ${fmt(r.difference)}); wrote ${out}/`,
    ],
  };
}

/** Reads a Gate A selection.json and compares its selected set with the equipped skill. */
async function frozenSelectionIssues(
  equipped: Parameters<typeof selectionMismatch>[0],
  file: string,
): Promise<Issue[]> {
  const read = await readOutput(file, SelectionSchema);
  if (!read.ok) return read.issues;
  if (read.output === null) {
    return [{ code: "io_error", file, message: "Cannot read the Gate A selection: no such file" }];
  }
  const selected = read.output.value.selected;
  return selectionMismatch(equipped, selected, file);
}

function fmt(v: number | null | undefined): string {
  return v === null || v === undefined ? "—" : v.toFixed(4);
}
