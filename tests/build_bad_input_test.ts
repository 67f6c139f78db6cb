/**
 * `gate build` refuses a study file's mistakes before anything runs, each
 * as one line `code  file:line field  message` (a did-you-mean where a
 * known name is near), exit 2, nothing written or deleted; and the rest of
 * its command line: an output root that holds a user's file, an unknown
 * `--only`, a missing study file, a step that should refuse but does not,
 * a notebook step without the permission to run Python. Also `--graph` and
 * a study file written as JSON. Through the real CLI (the gate task's
 * permissions), in temporary directories; the one gate is the demo's.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { filesOf, gate, ROOT } from "./build_study.ts";

const GATE = join(ROOT, "data", "demo", "ckpt-a", "gate-a");

/** A new directory holding gatelab.yaml with `text`, `<gate>` replaced by the demo gate's path. */
async function studyDir(text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-build-bad-" });
  await Deno.writeTextFile(join(dir, "gatelab.yaml"), text.replaceAll("<gate>", GATE));
  return dir;
}

/** Builds `text` and expects exit 2 with exactly `lines` on stderr and nothing written. */
async function refused(text: string, lines: readonly (string | RegExp)[], args: string[] = []) {
  const dir = await studyDir(text);
  try {
    const before = [...filesOf(dir).keys()];
    const ran = await gate(dir, ["build", ...args]);
    equal(ran.code, 2, ran.stderr);
    equal(ran.stdout, "");
    const got = ran.stderr.trimEnd().split("\n");
    equal(got.length, lines.length, ran.stderr);
    lines.forEach((want, i) =>
      typeof want === "string" ? equal(got[i], want) : match(got[i]!, want)
    );
    deepEqual([...filesOf(dir).keys()], before, "nothing written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const NOTHING = "not built: 1 issue(s) in gatelab.yaml; nothing ran";

Deno.test("build: a syntax error names its line and column", async () => {
  await refused("study: s\nsteps:\n  - analyze: [a, b\n", [
    /^parse_error {2}gatelab\.yaml:4 {2}not YAML or JSON \(column 1\): /,
    NOTHING,
  ]);
});

Deno.test("build: an unknown key, command or option is named with the nearest known one", async () => {
  await refused("study: s\nstpes: []\n", [
    "schema_error  gatelab.yaml:2 stpes  unknown key; did you mean steps?",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - analyse: <gate>\n", [
    "schema_error  gatelab.yaml:3 steps[0].analyse  unknown command; did you mean analyze?",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - analyze: <gate>\n    bootstraps: 10\n", [
    "schema_error  gatelab.yaml:4 steps[0].bootstraps  unknown option of analyze; did you mean bootstrap?",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - analyze: <gate>\n    bootstrap: [1, 2]\n", [
    "schema_error  gatelab.yaml:4 steps[0].bootstrap  expected a text or a number",
    NOTHING,
  ]);
  await refused("study: s\nimports:\n  - table: t.csv\n", [
    "schema_error  gatelab.yaml:3 imports[0]  import table needs id:",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - heldout: <gate>\n", [
    "schema_error  gatelab.yaml:3 steps[0]  heldout needs plan:",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - analyze: <gate>\n    out: elsewhere\n", [
    "schema_error  gatelab.yaml:4 steps[0].out  out is the build's: the output goes to <out>/<id>; name it with id:",
    NOTHING,
  ]);
});

Deno.test("build: a duplicate id, an id of the build's own, a cycle are refused", async () => {
  await refused("study: s\nsteps:\n  - analyze: <gate>\n  - analyze: <gate>\n    bootstrap: 0\n", [
    "duplicate_id  gatelab.yaml:4 steps[1]  id ckpt-a-a is also steps[0]'s (line 3): two entries cannot write one <out>/ckpt-a-a; give one of them another id:",
    NOTHING,
  ]);
  await refused(
    "study: s\nsteps:\n  - analyze: <gate>\n    id: G\n  - validate: <gate>\n    id: g\n",
    [
      "duplicate_id  gatelab.yaml:6 steps[1].id  id g differs only in case from steps[0]'s (line 3): two entries cannot write one <out>/g; give one of them another id:",
      NOTHING,
    ],
  );
  await refused("study: s\nsteps:\n  - analyze: <gate>\n    id: tables\n", [
    "duplicate_id  gatelab.yaml:4 steps[0].id  tables is the build's own <out>/tables; give the step another id:",
    NOTHING,
  ]);
  await refused("study: s\nsteps:\n  - history: y\n    id: x\n  - history: x\n    id: y\n", [
    "dependency_cycle  gatelab.yaml:5 steps[1]  a cycle: y -> x -> y",
    NOTHING,
  ]);
});

Deno.test("build: an input that does not exist, and a path under a step's id that exists too", async () => {
  await refused(
    "study: s\nsteps:\n  - analyze: <gate>\n    id: gate-a\n  - analyze: runs/gate-aa\n",
    [
      "input_missing  gatelab.yaml:5 steps[1].analyze  runs/gate-aa does not exist, and runs is no import or step of this study",
      NOTHING,
    ],
  );
  await refused(
    "study: s\nsteps:\n  - analyze: <gate>\n    id: gate-aa\n  - plan-power:\n    from: gate-a\n",
    [
      "input_missing  gatelab.yaml:6 steps[1].from  gate-a does not exist, and gate-a is no import or step of this study; did you mean gate-aa?",
      NOTHING,
    ],
  );
  const dir = await studyDir(
    "study: s\nsteps:\n  - analyze: <gate>\n    id: runs\n  - analyze: runs/g\n",
  );
  try {
    await Deno.mkdir(join(dir, "runs", "g"), { recursive: true });
    const ran = await gate(dir, ["build"]);
    equal(ran.code, 2);
    match(
      ran.stderr,
      /^input_ambiguous {2}gatelab\.yaml:5 steps\[1\]\.analyze {2}runs\/g names both runs of this study and the path runs\/g; write \.\/runs\/g for the path, or give runs another id:$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("build: an output root holding a user's file is refused and kept; a missing study file and an unknown --only too", async () => {
  const dir = await studyDir("study: s\nsteps:\n  - validate: <gate>\n");
  try {
    await Deno.mkdir(join(dir, "out"));
    await Deno.writeTextFile(join(dir, "out", "notes.txt"), "mine\n");
    const ran = await gate(dir, ["build"]);
    equal(ran.code, 2);
    equal(
      ran.stderr,
      "usage_error  out holds files gatelab did not write; out/notes.txt is the first, and a build " +
        "replaces what it writes there, so move them away or give a new or empty directory\n",
    );
    equal(await Deno.readTextFile(join(dir, "out", "notes.txt")), "mine\n");
    deepEqual([...Deno.readDirSync(join(dir, "out"))].map((e) => e.name), ["notes.txt"]);
    const only = await gate(dir, ["build", "--only", "validate-ckpt-a-aa", "--out", "o2"]);
    equal(only.code, 2);
    equal(
      only.stderr,
      "usage_error  --only validate-ckpt-a-aa: no import or step of gatelab.yaml has this id; did you mean validate-ckpt-a-a?\n",
    );
    const missing = await gate(dir, ["build", "nope.yaml"]);
    equal(missing.code, 2);
    match(missing.stderr, /^usage_error {2}nope\.yaml does not exist; expected a study file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("build: a step meant to refuse that does not fails; a notebook step needs python3 and says how to grant it", async () => {
  const dir = await studyDir(
    "study: s\nsteps:\n  - validate: <gate>\n    expect: refused\n  - notebook: 01_gate_reanalysis\n    p: {DRAWS: 50}\n",
  );
  try {
    const ran = await gate(dir, ["build"]);
    equal(ran.code, 2, ran.stderr);
    match(
      ran.stderr,
      /^\[1\/5\] validate validate-ckpt-a-a \.\.\. failed \(exited 0, but expect: refused says it should refuse \(exit 2\)\) /m,
    );
    match(
      ran.stderr,
      /^\[2\/5\] notebook notebook-01_gate_reanalysis \.\.\. failed \(exit 2\) .*\n {4}usage_error {2}a notebook step runs python3, which the gate task does not grant; run the build as deno run .*--allow-run=rsvg-convert,python3 lib\/cli\/main\.ts build/m,
    );
    equal(
      ran.stdout.split("\n")[0],
      "not ok: 2 failed (validate-ckpt-a-a, notebook-01_gate_reanalysis); 0 built, 0 up to date; the outputs of the failed and skipped ones are kept as they were",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("build: a JSON study file is read the same; --graph prints the graph and writes Mermaid and DOT", async () => {
  const json = JSON.stringify({
    study: "s",
    steps: [{ analyze: GATE, id: "g", bootstrap: 0 }, { "plan-power": null, from: "g", sims: 10 }],
  });
  const dir = await Deno.makeTempDir({ prefix: "gatelab-build-json-" });
  try {
    await Deno.writeTextFile(join(dir, "study.json"), json);
    const graph = await gate(dir, ["build", "study.json", "--graph"]);
    equal(graph.code, 0, graph.stderr);
    equal(
      graph.stdout,
      "analyze     g\nplan-power  plan-power-g  <- g\nwrote out/graph/study.mmd and study.dot\n",
    );
    equal(
      await Deno.readTextFile(join(dir, "out", "graph", "study.mmd")),
      'flowchart LR\n  n0["analyze g"]\n  n1["plan-power plan-power-g"]\n  n0 --> n1\n',
    );
    match(
      await Deno.readTextFile(join(dir, "out", "graph", "study.dot")),
      /"g" -> "plan-power-g";/,
    );
    const dry = await gate(dir, ["build", "study.json", "--dry-run"]);
    equal(dry.code, 0, dry.stderr);
    equal(
      dry.stdout,
      "[1/2] analyze g: would build (no output yet)\n" +
        "[2/2] plan-power plan-power-g: would build (no output yet)\n" +
        "dry run: 2 of 2 steps would be built; nothing was run or written\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
