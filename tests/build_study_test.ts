/**
 * `gate build` through the real CLI (the gate task's permissions, INIT_CWD
 * set) on the study of tests/build_study.ts: seven gates over four
 * checkpoints imported from CSV tables and inspect_ai logs, 18 imports and
 * steps. A full build writes every output byte for byte as the same
 * commands typed by hand; a second build does nothing and says so in one
 * line without touching a file; one changed CSV row rebuilds that import
 * and exactly the steps downstream of it; a build killed with SIGKILL is
 * finished by the next; --jobs 1 and --jobs 2 give the same bytes; a
 * failing step leaves every other step built and its own earlier output as
 * it was; a second build of the same study waits for the first.
 *
 * The tests of this file run in order on shared directories (one study
 * built three ways). Needs `deno` and `python3` (the inspect_ai logs).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { ignoreWithout } from "./ci_tools.ts";
import {
  builtIds,
  copyStudy,
  filesOf,
  gate,
  gateCommand,
  HAND_COMMANDS,
  STUDY_IDS,
  STUDY_YAML,
  writeStudy,
} from "./build_study.ts";
import { parseStudyFile } from "../lib/build/study_file.ts";
import { resolveStudy } from "../lib/build/resolve.ts";
import { downstreamOf } from "../lib/build/graph.ts";
import { STATE_FILE } from "../lib/build/state.ts";

const ignore = ignoreWithout("python3", "gate build on the imported study");
const ROOT = await Deno.makeTempDir({ prefix: "gatelab-build-" });
globalThis.addEventListener("unload", () => Deno.removeSync(ROOT, { recursive: true }));
/** Built with --jobs 2; the one the later tests change. */
const MAIN = join(ROOT, "main");
/** Built with --jobs 1, killed once. */
const SERIAL = join(ROOT, "serial");
/** The same commands typed by hand. */
const HAND = join(ROOT, "hand");

/** Every output file of a study directory's out/, the build state aside. */
function outputs(dir: string): Map<string, Uint8Array> {
  const files = filesOf(join(dir, "out"));
  files.delete(STATE_FILE);
  return files;
}

/** The files of the steps' and imports' outputs: the study-wide tables, report and paper left out. */
function stepOutputs(dir: string): Map<string, Uint8Array> {
  const files = outputs(dir);
  for (const key of [...files.keys()]) {
    if (/^(tables|report|paper)\//.test(key)) files.delete(key);
  }
  return files;
}

function sameFiles(a: Map<string, Uint8Array>, b: Map<string, Uint8Array>, what: string): void {
  deepEqual([...a.keys()], [...b.keys()], `${what}: the same files`);
  const differ = [...a].filter(([k, v]) => !equalBytes(v, b.get(k)!)).map(([k]) => k);
  deepEqual(differ, [], `${what}: the same bytes, but ${differ.join(", ")}`);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Modification time of every file under a directory. */
function mtimes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of filesOf(dir).keys()) {
    out[name] = Deno.statSync(join(dir, name)).mtime!.getTime();
  }
  return out;
}

/** Rewrites one masked reward of a table (its 11th data row), keeping everything else. */
async function changeOneRow(file: string): Promise<void> {
  const lines = (await Deno.readTextFile(file)).split("\n");
  const fields = lines[11]!.split(",");
  equal(fields[1], "masked");
  fields[4] = (Number(fields[4]) + 0.25).toFixed(4);
  lines[11] = fields.join(",");
  await Deno.writeTextFile(file, lines.join("\n"));
}

Deno.test({
  name: "build: the study file resolves to exactly the command lines a user types by hand",
  ignore,
  fn: async () => {
    await Deno.mkdir(MAIN, { recursive: true });
    await writeStudy(MAIN);
    const parsed = parseStudyFile(STUDY_YAML, "gatelab.yaml");
    if (!parsed.ok) throw new Error(parsed.issues[0]!.message);
    const study = resolveStudy(parsed.study, { cwd: MAIN });
    if (!("nodes" in study)) throw new Error(study.issues[0]!.message);
    deepEqual(study.nodes.map((n) => n.argv), HAND_COMMANDS);
    deepEqual(study.nodes.map((n) => n.id), STUDY_IDS);
  },
});

Deno.test({
  name: "build: a full build writes every output byte for byte as the same commands run by hand",
  ignore,
  fn: async () => {
    const built = await gate(MAIN, ["build", "--jobs", "2"]);
    equal(built.code, 0, built.stderr);
    deepEqual(builtIds(built.stderr).sort(), [...STUDY_IDS].sort());
    match(
      built.stdout,
      /^ok: 4 imports and 14 steps, with the study's tables, report and paper in out: 18 built, 0 up to date\n$/,
    );
    for (const [i, unit] of ["tables", "report", "paper"].entries()) {
      match(
        built.stderr,
        new RegExp(`^\\[${19 + i}/21\\] ${unit} \\.\\.\\. built \\d+\\.\\d s$`, "m"),
      );
    }
    // Never interleaved mid-line: every line of the build is a progress line.
    for (const line of built.stderr.trimEnd().split("\n")) {
      match(
        line,
        /^\[ ?\d+\/21\] (\S+( table| inspect)? \S+|tables|report|paper) \.\.\.( built \d+\.\d s)?$/,
      );
    }

    await copyStudy(MAIN, HAND);
    for (const argv of HAND_COMMANDS) {
      const ran = await gate(HAND, argv);
      equal(ran.code, 0, `${argv.join(" ")}: ${ran.stderr}`);
    }
    sameFiles(stepOutputs(MAIN), outputs(HAND), "gate build against the commands by hand");
    const state = JSON.parse(await Deno.readTextFile(join(MAIN, "out", STATE_FILE)));
    deepEqual(Object.keys(state.steps).sort(), [...STUDY_IDS].sort());
    deepEqual(state.steps["ck-1-r1"].upstream, { a: state.steps.a.key });
  },
});

Deno.test({
  name:
    "build: the study's paper of 14 steps compiles as written (acmart, pdflatex twice): no error, Overfull box, lost float or undefined label",
  ignore: ignore || ignoreWithout("pdflatex", "the study paper"),
  fn: async () => {
    const paper = join(MAIN, "out", "paper");
    const tex = [...Deno.readDirSync(paper)].map((e) => e.name).filter((n) => n.endsWith(".tex"));
    // A step that wrote LaTeX has its file; validate writes none.
    ok(
      tex.includes("ck-1-pooled.tex") && tex.includes("history.tex") &&
        !tex.includes("validate-logs.tex"),
    );
    const build = await Deno.makeTempDir({ prefix: "gatelab-study-paper-" });
    try {
      for (let i = 0; i < 2; i++) {
        await new Deno.Command("pdflatex", {
          args: [
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-output-directory",
            build,
            "main.tex",
          ],
          cwd: paper,
          stdout: "null",
          stderr: "null",
        }).output();
      }
      const log = await Deno.readTextFile(join(build, "main.log"));
      const problems = log.split("\n").filter((l) =>
        /^! |Overfull \\[hv]box|undefined|multiply defined|Float\(s\) lost|dead cycles/.test(l)
      );
      deepEqual(problems, []);
      ok(Deno.statSync(join(build, "main.pdf")).size > 50_000);
    } finally {
      await Deno.remove(build, { recursive: true });
    }
  },
});

Deno.test({
  name: "build: a second build with nothing changed does nothing, in one line, touching no file",
  ignore,
  fn: async () => {
    const before = mtimes(join(MAIN, "out"));
    const again = await gate(MAIN, ["build"]);
    equal(again.code, 0, again.stderr);
    equal(
      again.stdout,
      "up to date: 4 imports and 14 steps, with the study's tables, report and paper in out; " +
        "nothing to build\n",
    );
    equal(again.stderr, "");
    deepEqual(mtimes(join(MAIN, "out")), before);
  },
});

Deno.test({
  name: "build: gate sql gatelab.yaml opens every output the build wrote",
  ignore,
  fn: async () => {
    const sql = await gate(MAIN, [
      "sql",
      "gatelab.yaml",
      "--quiet",
      "--query",
      "select distinct output from coefficients order by output",
    ]);
    equal(sql.code, 0, sql.stderr);
    const analyses = [
      "ck-1-pooled",
      "ck-1-r1",
      "ck-1-r2",
      "ck-2-r1",
      "ck-2-r2",
      "ck-3-r1",
      "ck-3-r2",
    ];
    deepEqual(
      sql.stdout.trimEnd().split("\n").slice(2, -1).map((l) => l.trim()),
      [...analyses, "logs-analysis"].map((id) => `out/${id}`),
    );
  },
});

Deno.test({
  name: "build: --only builds a step and what it reads, nothing else",
  ignore,
  fn: async () => {
    const only = join(ROOT, "only");
    await copyStudy(MAIN, only);
    const built = await gate(only, ["build", "--only", "ck-2-r1"]);
    equal(built.code, 0, built.stderr);
    deepEqual(builtIds(built.stderr), ["b", "ck-2-r1"]);
    equal(built.stdout, "ok: 1 import and 1 step in out: 2 built, 0 up to date\n");
    const dry = await gate(only, ["build", "--dry-run"]);
    match(dry.stdout, /^dry run: 16 of 4 imports and 14 steps would be built;/m);
  },
});

Deno.test({
  name:
    "build: one changed row of one CSV rebuilds that import and exactly the steps downstream of it",
  ignore,
  fn: async () => {
    await changeOneRow(join(MAIN, "a.csv"));
    const dry = await gate(MAIN, ["build", "--dry-run"]);
    equal(dry.code, 0, dry.stderr);
    match(dry.stdout, /^\[ 1\/18\] import table a: would build \(input changed: a\.csv\)$/m);
    match(dry.stdout, /^\[ 5\/18\] analyze ck-1-r1: would build \(upstream rebuilt: a\)$/m);
    match(
      dry.stdout,
      /^dry run: 8 of 4 imports and 14 steps would be built; nothing was run or written$/m,
    );

    const parsed = parseStudyFile(STUDY_YAML, "gatelab.yaml");
    if (!parsed.ok) throw new Error("not parsed");
    const study = resolveStudy(parsed.study, { cwd: MAIN });
    if (!("nodes" in study)) throw new Error("not resolved");
    const downstream = downstreamOf(study.nodes, "a");
    deepEqual(downstream, [
      "ck-1-r1",
      "ck-1-r2",
      "ck-1-pooled",
      "sequential-ck-1-r1",
      "plan-power-ck-1-r1",
      "history",
      "overview",
    ]);
    const untouched = ["b", "ck-2-r1", "ck-3-r2", "logs-analysis"].map((id) =>
      [id, filesOf(join(MAIN, "out", id))] as const
    );
    const rebuilt = await gate(MAIN, ["build"]);
    equal(rebuilt.code, 0, rebuilt.stderr);
    deepEqual(builtIds(rebuilt.stderr).sort(), ["a", ...downstream].sort());
    equal([...rebuilt.stderr.matchAll(/\.\.\. up to date$/gm)].length, 18 - 8);
    match(rebuilt.stdout, /: 8 built, 10 up to date\n$/);
    for (const [id, files] of untouched) sameFiles(files, filesOf(join(MAIN, "out", id)), id);
  },
});

Deno.test({
  name:
    "build: killed with SIGKILL mid-build, the next build finishes it; --jobs 1 gives the bytes of --jobs 2",
  ignore,
  fn: async () => {
    await copyStudy(MAIN, SERIAL); // the changed table too
    const child = gateCommand(SERIAL, ["build", "--jobs", "1"]).spawn();
    let seen = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      seen += decoder.decode(chunk);
      if (builtIds(seen).length >= 6) break;
    }
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel();
    const before = builtIds(seen);
    // Every output directory is whole: its marker lists exactly the files it holds.
    for (const entry of Deno.readDirSync(join(SERIAL, "out"))) {
      if (!entry.isDirectory || entry.name.startsWith(".")) continue;
      const dir = join(SERIAL, "out", entry.name);
      const marker = JSON.parse(await Deno.readTextFile(join(dir, ".gatelab-output.json")));
      const held = [...filesOf(dir).keys()].filter((f) => f !== ".gatelab-output.json");
      deepEqual(held, marker.files, `${entry.name} is whole`);
    }
    const finished = await gate(SERIAL, ["build", "--jobs", "1"]);
    equal(finished.code, 0, finished.stderr);
    const after = builtIds(finished.stderr);
    ok(after.length >= 18 - before.length - 1 && after.length <= 18 - before.length + 1);
    deepEqual(after.filter((id) => before.includes(id)).length <= 1, true);
    sameFiles(outputs(SERIAL), outputs(MAIN), "--jobs 1 after a kill against --jobs 2");
  },
});

Deno.test({
  name:
    "build: a failing step is listed with its issue, its dependents are skipped, every other step builds",
  ignore,
  fn: async () => {
    const yaml = STUDY_YAML.replace(
      "  - analyze: a/ck-1/gate-r1\n    bootstrap: 200\n",
      "  - analyze: a/ck-1/gate-r1\n    bootstrap: 200\n    metric: r_nosuch\n",
    );
    await Deno.writeTextFile(join(MAIN, "gatelab.yaml"), yaml);
    await changeOneRow(join(MAIN, "b.csv"));
    const kept = filesOf(join(MAIN, "out", "ck-1-r1"));
    const failed = await gate(MAIN, ["build"]);
    equal(failed.code, 2, failed.stderr);
    match(
      failed.stderr,
      /^\[ 5\/21\] analyze ck-1-r1 \.\.\. failed \(exit 2\) \d+\.\d s\n {4}\S+ {2}.*r_nosuch/m,
    );
    match(
      failed.stderr,
      /^\[16\/21\] plan-power plan-power-ck-1-r1 \.\.\. skipped: it reads ck-1-r1, which did not build$/m,
    );
    deepEqual(builtIds(failed.stderr).sort(), ["b", "ck-2-r1", "ck-2-r2", "heldout-ck-2-r1"]);
    // The study-wide outputs show one consistent build: kept while a step did not build.
    match(
      failed.stderr,
      /^\[19\/21\] tables \.\.\. skipped: ck-1-r1, plan-power-ck-1-r1, history and overview did not build$/m,
    );
    equal(
      failed.stdout,
      "not ok: 1 failed (ck-1-r1), 3 skipped (plan-power-ck-1-r1, history, overview); " +
        "4 built, 10 up to date; the outputs of the failed and skipped ones are kept as they were\n",
    );
    sameFiles(kept, filesOf(join(MAIN, "out", "ck-1-r1")), "the failed step's earlier output");
    // Put right, the next build rebuilds the failed step and what it skipped.
    await Deno.writeTextFile(join(MAIN, "gatelab.yaml"), STUDY_YAML);
    const fixed = await gate(MAIN, ["build"]);
    equal(fixed.code, 0, fixed.stderr);
    deepEqual(builtIds(fixed.stderr).sort(), ["history", "overview"]);
  },
});

Deno.test({
  name: "build: a second build of the same study waits for the first, then finds it up to date",
  ignore,
  fn: async () => {
    await changeOneRow(join(MAIN, "c.csv"));
    const first = gateCommand(MAIN, ["build"]).spawn();
    const reader = first.stderr.getReader();
    let seen = "";
    while (!seen.includes("...")) seen += new TextDecoder().decode((await reader.read()).value);
    const second = await gate(MAIN, ["build"]);
    reader.releaseLock();
    const firstDone = await first.output();
    equal(firstDone.code, 0);
    equal(second.code, 0, second.stderr);
    match(second.stderr, /^waiting: another gate build \(pid \d+\) is building out$/m);
    match(
      second.stdout,
      /^up to date: 4 imports and 14 steps, with the study's tables, report and paper in out; nothing to build/,
    );
  },
});
