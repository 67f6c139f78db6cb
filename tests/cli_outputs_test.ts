/**
 * The CLI as a user runs it: a real `deno run` subprocess with exactly the
 * permissions of the `gate` task in deno.json, run in the project root with
 * INIT_CWD set to the user's directory (what `deno task gate` does), and
 * relative paths from that directory.
 *
 * - path mistakes and option typos: exit 2 and one line naming the path or
 *   option and what was expected (a table of cases);
 * - every command with every path option given relative to the user's
 *   directory, with --quiet;
 * - kill -9 of a real `gate analyze` at several moments: --out is always
 *   either the earlier result or the new one, never a mix, and the next run
 *   leaves no temporary behind;
 * - two concurrent runs with different baselines into one --out: one wins,
 *   the other is refused (baseline_changed) and its report goes beside.
 *
 * Needs `deno` on PATH (the test task has --allow-run=deno).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../lib/core/sha256.ts";
import { gateTask, gateTaskArgs } from "./gate_process.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DEMO = join(ROOT, "data", "demo");

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `deno task gate <args>` as a user in `cwd` would. */
function spawnGate(cwd: string, args: readonly string[], piped = true): Deno.ChildProcess {
  return new Deno.Command("deno", {
    args: [...gateTaskArgs(), ...args],
    cwd: ROOT,
    env: { ...gateTask().env, INIT_CWD: cwd, NO_COLOR: "1" },
    stdin: "null",
    stdout: piped ? "piped" : "null",
    stderr: piped ? "piped" : "null",
  }).spawn();
}

async function gate(cwd: string, args: readonly string[]): Promise<Ran> {
  const { code, stdout, stderr } = await spawnGate(cwd, args).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "gatelab-cli-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Every file under `dir` (relative path to bytes as text), or null when `dir` is missing. */
function tree(dir: string, prefix = ""): Record<string, string> | null {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const out: Record<string, string> = {};
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix + e.name;
    if (e.isDirectory) Object.assign(out, tree(join(dir, e.name), `${rel}/`));
    else out[rel] = Deno.readTextFileSync(join(dir, e.name));
  }
  return out;
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("CLI path mistakes and option typos: exit 2, one line naming the path and what was expected", async () => {
  await using u = await tempDir();
  const d = relative(u.path, DEMO); // the demo data, relative to the user's directory
  const gateA = `${d}/ckpt-a/gate-a`;
  await Deno.writeTextFile(join(u.path, "README.md"), "mine\n");
  await Deno.mkdir(join(u.path, "papers"));
  await Deno.writeTextFile(join(u.path, "papers", "draft.tex"), "mine\n");
  equal((await gate(u.path, ["analyze", gateA, "--out", "a0", "--bootstrap", "0"])).code, 0);

  const cases: [string[], RegExp][] = [
    [
      ["analyze", gateA, "--out", "README.md", "--bootstrap", "0"],
      /^usage_error {2}--out README\.md is a file; expected a directory for the outputs/,
    ],
    [
      ["analyze", gateA, "--out", "o", "--ledger", "/tmp", "--bootstrap", "0"],
      /^usage_error {2}--ledger \/tmp is a directory; expected a ledger file/,
    ],
    [
      ["analyze", gateA, "--out", "/proc/nope", "--bootstrap", "0"],
      /^usage_error {2}--out \/proc\/nope is not accessible under this run's Deno permissions/,
    ],
    [
      ["analyze", `${gateA}/gate.json`, "--out", "o", "--bootstrap", "0"],
      /^usage_error {2}\S*gate-a\/gate\.json is a file; expected a gate directory/,
    ],
    [
      ["analyze", "no-such-gate", "--out", "o"],
      /^usage_error {2}no-such-gate does not exist; expected a gate directory/,
    ],
    [
      [
        "compare",
        "--bare",
        `${d}/gate-b/equipped-test`,
        "--equipped",
        `${d}/gate-b/bare-test`,
        "--out",
        "o",
      ],
      /^usage_error {2}--bare \S+equipped-test is an equipped run and --equipped \S+bare-test is a bare run \(manifest\.json arm\); swap --bare and --equipped$/,
    ],
    [
      ["analyze", gateA, "--out", "o", "--bootstraps", "0"],
      /^usage_error {2}analyze: unknown option --bootstraps; did you mean --bootstrap\?/,
    ],
    [
      ["analyze", gateA, "--out", "o", "--bootstrap", "-5"],
      /^usage_error {2}--bootstrap must be a non-negative integer, got "-5"$/,
    ],
    [
      ["analyze", gateA, "--out", "o", "--bootstrap=-5"],
      /^usage_error {2}--bootstrap must be a non-negative integer, got "-5"$/,
    ],
    [
      ["sql", gateA, "--query", "select 1", "--out", "no/such/dir/x.csv"],
      /^usage_error {2}--out no\/such\/dir\/x\.csv: directory no\/such\/dir does not exist/,
    ],
    [
      ["analyze", gateA, "--out", "papers", "--bootstrap", "0"],
      /^usage_error {2}--out papers holds files gatelab did not write; /,
    ],
    [
      ["plan-power", "--from", "a0", "--out", "a0"],
      /^usage_error {2}--out a0 contains --from a0; the output directory is replaced whole/,
    ],
    [
      ["validate", gateA, "--out", "v", "--cache", "v/cache"],
      /^usage_error {2}--out v contains --cache v\/cache; /,
    ],
    [
      ["heldout", gateA, "--plan", d, "--out", "h"],
      /^usage_error {2}--plan \S+ is a directory; expected a heldout plan file/,
    ],
    [
      ["history", "a0", "no-such-step", "--out", "h"],
      /^usage_error {2}no-such-step does not exist; expected a gate or analysis directory$/,
    ],
    [
      ["ledger-audit", "a0", "--out", "l"],
      /^usage_error {2}a0 is a directory; expected a proposal ledger file \(JSONL\)$/,
    ],
    [
      ["firewall", "--gold", "README.md", "--texts", "nope.jsonl", "--out", "f"],
      /^usage_error {2}--texts nope\.jsonl does not exist; expected a JSONL file$/,
    ],
    [
      ["report", "a0", "--out", "r", "--title"],
      /^usage_error {2}report: --title needs a value; see deno task gate report --help$/,
    ],
  ];
  for (const [args, expected] of cases) {
    const r = await gate(u.path, args);
    const what = args.join(" ");
    equal(r.code, 2, `${what}: exit code (stderr: ${r.stderr})`);
    equal(r.stdout, "", `${what}: nothing on stdout`);
    equal(r.stderr.trimEnd().split("\n").length, 1, `${what}: one line, got\n${r.stderr}`);
    match(r.stderr.trimEnd(), expected, what);
  }
  // Nothing was created or touched by the refused commands.
  deepEqual(names(u.path), ["README.md", "a0", "papers"]);
  equal(await Deno.readTextFile(join(u.path, "README.md")), "mine\n");
  deepEqual(names(join(u.path, "papers")), ["draft.tex"]);
});

Deno.test("CLI: every command with every path option relative to the user's directory, --quiet", async () => {
  await using u = await tempDir();
  const d = relative(u.path, DEMO);
  const gateA = `${d}/ckpt-a/gate-a`;
  await Deno.writeTextFile(
    join(u.path, "plan.json"),
    JSON.stringify({
      format: "gatelab.heldout-plan/v1",
      scheme: "split_half",
      repeats: 2,
      seed: 1,
      metric: "reward",
    }),
  );
  await Deno.writeTextFile(join(u.path, "weights.json"), "{}\n");
  const steps: string[][] = [
    ["validate", gateA, "--out", "v", "--cache", "cache"],
    ["analyze", gateA, "--out", "a", "--ledger", "ledger.jsonl", "--cache", "cache"],
    ["heldout", gateA, "--plan", "plan.json", "--against", gateA, "--out", "h", "--cache", "cache"],
    ["plan-power", "--from", "a", "--sims", "20", "--out", "p"],
    [
      "compare",
      "--bare",
      `${d}/gate-b/bare-test`,
      "--equipped",
      `${d}/gate-b/equipped-test`,
      "--selection",
      "a/selection.json",
      "--bootstrap",
      "0",
      "--out",
      "c",
    ],
    ["study", `${d}/study`, "--out", "s"],
    [
      "reward",
      `${d}/steps/steps.jsonl`,
      "--recipe",
      "C",
      "--groups",
      `${d}/steps/groups.jsonl`,
      "--prm-weights",
      "weights.json",
      "--bootstrap",
      "20",
      "--out",
      "r",
    ],
    ["report", "a", "h", "p", "c", "--out", "rep"],
    ["sql", gateA, "--query", "select count(*) as n from runs", "--out", "q.csv"],
  ];
  for (const args of steps) {
    const full = [
      ...args,
      ...(args.includes("--bootstrap") || args[0] !== "analyze" ? [] : ["--bootstrap", "0"]),
      "--quiet",
    ];
    const r = await gate(u.path, full);
    equal(r.code, 0, `${full.join(" ")}\n${r.stdout}${r.stderr}`);
    ok(r.stdout.trimEnd().split("\n").length <= 1, `${args[0]} --quiet: at most the summary line`);
  }
  // Every output landed where the relative paths point, from the user's directory.
  deepEqual(names(u.path), [
    "a",
    "c",
    "cache",
    "h",
    "ledger.jsonl",
    "p",
    "plan.json",
    "q.csv",
    "r",
    "rep",
    "s",
    "v",
    "weights.json",
  ]);
  ok(names(join(u.path, "a")).includes("contributions.json"));
  ok(!names(join(u.path, "a")).includes("ledger.jsonl"), "the ledger went to --ledger");
  equal(await Deno.readTextFile(join(u.path, "q.csv")), "n\n2\n");
  const report = JSON.parse(await Deno.readTextFile(join(u.path, "rep", "report.json")));
  deepEqual(report.source_dirs, ["a", "h", "p", "c"]);
  // A re-run finds the relative ledger again: merged by key, not appended.
  const ledger = await Deno.readTextFile(join(u.path, "ledger.jsonl"));
  const again = await gate(u.path, [...steps[1]!, "--bootstrap", "0", "--quiet"]);
  equal(again.code, 0, again.stderr);
  equal(await Deno.readTextFile(join(u.path, "ledger.jsonl")), ledger);
});

Deno.test("CLI: kill -9 of a real gate analyze at any moment leaves the old or the new directory, never a mix", async () => {
  await using u = await tempDir();
  const gateA = relative(u.path, join(DEMO, "ckpt-a", "gate-a"));
  // Old: K = 5 without bootstrap. New: K = 10 with the bootstrap's stability tables.
  const older = ["analyze", gateA, "--out", "k", "--bootstrap", "0", "--budget-k", "5", "--quiet"];
  const newer = ["analyze", gateA, "--out", "k", "--bootstrap", "4000", "--quiet"];
  // The ledger in --out is merged by key (K is part of the key), so after one
  // round it alternates between two fixed texts: settle it first.
  for (const args of [older, newer, older]) equal((await gate(u.path, args)).code, 0);
  const OLD = tree(join(u.path, "k"))!;
  ok(!("stability.md" in OLD));
  const started = performance.now();
  equal((await gate(u.path, newer)).code, 0);
  const runTime = performance.now() - started;
  const NEW = tree(join(u.path, "k"))!;
  ok("stability.md" in NEW);
  equal((await gate(u.path, older)).code, 0);
  deepEqual(tree(join(u.path, "k")), OLD);
  deepEqual(names(u.path), ["k"]);

  // Moments: fractions of a full run, the moment the swap's journal appears
  // (write phase begins), the moment the new directory being built holds
  // contributions.json (mid-write), and after the run ended by itself (the
  // fractions alone cannot promise that on a loaded machine).
  type Moment = number | "journal" | "staging" | "exited";
  const moments: Moment[] = [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.5].map((f) => f * runTime);
  moments.push("journal", "journal", "staging", "staging", "exited");
  const outcomes: string[] = [];
  for (const moment of moments) {
    const child = spawnGate(u.path, newer, false);
    let exited = false;
    child.status.then(() => (exited = true));
    if (typeof moment === "number") await new Promise((r) => setTimeout(r, moment));
    else if (moment === "exited") await child.status;
    else {
      const deadline = performance.now() + 60_000;
      while (!exited && performance.now() < deadline) {
        const entries = names(u.path);
        if (moment === "journal" && entries.includes(".k.gatelab-journal")) break;
        const staged = entries.find((n) => n.startsWith(".k.gatelab-new-"));
        if (
          moment === "staging" && staged !== undefined &&
          (await Deno.lstat(join(u.path, staged, "contributions.json")).then(
            () => true,
            () => false,
          ))
        ) break;
        await new Promise((r) => setTimeout(r, 0));
      }
    }
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await child.status;
    const now = tree(join(u.path, "k"));
    if (now === null) {
      // Only possible between the two renames of the swap: the journal says so
      // and the earlier directory is kept beside; the next run puts it back.
      ok(
        names(u.path).includes(".k.gatelab-journal"),
        `${moment}: missing --out without a journal`,
      );
      outcomes.push("between renames");
    } else if (JSON.stringify(now) === JSON.stringify(OLD)) outcomes.push("old");
    else if (JSON.stringify(now) === JSON.stringify(NEW)) outcomes.push("new");
    else throw new Error(`kill at ${moment}: a mix of old and new: ${Object.keys(now).join(", ")}`);
    // The next run cleans up whatever the kill left and writes the old result again.
    const next = await gate(u.path, older);
    equal(next.code, 0, next.stderr);
    deepEqual(tree(join(u.path, "k")), OLD);
    deepEqual(names(u.path), ["k"], `after the kill at ${moment}, the next run left no temporary`);
  }
  ok(outcomes.includes("old"), outcomes.join(", "));
  ok(outcomes.includes("new"), outcomes.join(", "));
});

Deno.test("CLI: two concurrent analyses with different baselines into one --out: one succeeds, one is refused", async () => {
  await using u = await tempDir();
  const a = relative(u.path, join(DEMO, "ckpt-a", "gate-a"));
  const b = relative(u.path, join(DEMO, "ckpt-b", "gate-online-r1"));
  const runs = await Promise.all([
    gate(u.path, ["analyze", a, "--out", "shared", "--bootstrap", "500", "--quiet"]),
    gate(u.path, ["analyze", b, "--out", "shared", "--bootstrap", "500", "--quiet"]),
  ]);
  deepEqual(
    runs.map((r) => r.code).sort(),
    [0, 2],
    runs.map((r) => r.stdout + r.stderr).join("\n"),
  );
  const loser = runs.find((r) => r.code === 2)!;
  match(
    loser.stdout,
    /^not ok: 1 issue\(s\) \(baseline_changed 1\); wrote shared\.failed\/validation\.json; shared keeps its earlier result$/m,
  );
  const winner = runs[0]!.code === 0 ? a : b;
  const contributions = JSON.parse(
    await Deno.readTextFile(join(u.path, "shared", "contributions.json")),
  );
  const validation = JSON.parse(await Deno.readTextFile(join(u.path, "shared", "validation.json")));
  equal(validation.ok, true);
  equal(validation.generator.command.includes(winner), true);
  const report = JSON.parse(
    await Deno.readTextFile(join(u.path, "shared.failed", "validation.json")),
  );
  deepEqual(report.issues.map((i: { code: string }) => i.code), ["baseline_changed"]);
  ok(contributions.baseline.sha256.length === 64);
  deepEqual(names(u.path), ["shared", "shared.failed"]);
});

Deno.test("determinism: two --out directories of the same command differ only in the recorded --out", async () => {
  const { main } = await import("../lib/cli/main.ts");
  await using u = await tempDir();
  const gateA = join(DEMO, "ckpt-a", "gate-a");
  const log = console.log, error = console.error;
  console.log = console.error = () => {};
  const outs = ["first", "second", "first"].map((n) => join(u.path, n));
  try {
    for (const out of outs) {
      // One label prefix for all: by default labels and captions name the --out directory.
      const prefix = ["--label-prefix", "run"];
      equal(
        await main([
          "analyze",
          gateA,
          "--out",
          out,
          "--bootstrap",
          "200",
          "--seed",
          "7",
          ...prefix,
        ]),
        0,
      );
      equal(await main(["report", out, "--out", `${out}-report`, ...prefix]), 0);
    }
  } finally {
    console.log = log;
    console.error = error;
  }
  // A report records the sha256 of the outputs it read, which record their own --out.
  const hashes = Object.entries(tree(outs[1]!)!).map(([name, text]) => [
    sha256Hex(new TextEncoder().encode(text)),
    sha256Hex(new TextEncoder().encode(tree(outs[0]!)![name]!)),
  ]);
  for (const suffix of ["", "-report"]) {
    const first = tree(`${outs[0]}${suffix}`)!, second = tree(`${outs[1]}${suffix}`)!;
    deepEqual(Object.keys(first), Object.keys(second));
    for (const [name, text] of Object.entries(first)) {
      // Re-run into the same --out (the third run): byte-identical.
      // Another --out: identical once its path (and the hashes of inputs
      // that record their path) are put back.
      let other = second[name]!.replaceAll(outs[1]!, outs[0]!);
      for (const [from, to] of hashes) other = other.replaceAll(from!, to!);
      equal(other, text, `${suffix} ${name}`);
    }
    ok(Object.values(first).some((text) => text.includes(outs[0]!)), "the --out is recorded");
  }
});
