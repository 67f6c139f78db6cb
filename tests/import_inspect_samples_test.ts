/**
 * `gate import inspect` on what inspect_ai logs hold in practice, through
 * the real CLI, on toy logs built here (tests/inspect_logs.ts): the skill
 * switched on by a task argument (named in the refusal; with
 * `inspect.arm_args` imported, validated, recorded), masked samples whose
 * injected ids sit under another metadata key (one line with the count,
 * the keys and the mapping key), a mask stored as an object, samples that
 * errored (an errored sample is a failed attempt, never a completed one:
 * refused as validation would; retried errors are failed attempts before
 * the completed one; a record inspect_ai wrote again supersedes its
 * errored one), and inputs given twice.
 *
 * Needs `deno`.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { exists, gate, ROOT, smallCsv, tempDir } from "./import_gate.ts";
import { type ToyLog, toyLog, toyMask, writeLog } from "./inspect_logs.ts";
import { deflated, rawZip } from "./zip_writer.ts";

/** The issue lines of a refused import (all but the summary line). */
function issueLines(stderr: string): string[] {
  const lines = stderr.trimEnd().split("\n");
  match(lines.at(-1)!, /^not imported: \d+ issue\(s\); nothing written$/);
  return lines.slice(0, -1);
}

async function mapping(dir: string, name: string, value: unknown): Promise<string> {
  await Deno.writeTextFile(
    join(dir, name),
    JSON.stringify({ format: "gatelab.import-map/v1", ...value as object }),
  );
  return name;
}

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

async function traces(path: string) {
  return (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
}

const importArgs = (bare: string, masked: string, out: string, map?: string) => [
  "import",
  "inspect",
  "--bare",
  bare,
  "--masked",
  masked,
  ...(map ? ["--map", map] : []),
  "--out",
  out,
];

Deno.test("import inspect: a skill given as a task argument is named, and arm_args imports it", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await writeLog(t, "bare.eval", toyLog("bare"));
  await writeLog(
    t,
    "masked.eval",
    toyLog("masked", { eval: { task_args: { level: 2, skills: ["a.v1", "b.v1", "c.v1"] } } }),
  );
  const refused = await gate(t, importArgs("bare.eval", "masked.eval", "out"));
  equal(refused.code, 2, refused.stderr);
  deepEqual(issueLines(refused.stderr), [
    'provenance_mismatch  masked.eval eval.task_args.skills  the environment differs from the bare log\'s (bare.eval) in eval.task_args.skills (bare (absent), masked ["a.v1","b.v1","c.v1"]); a masked log may differ from its bare log only in the skill: if this argument switches the skill on, declare it the arm\'s own in the mapping: "inspect": {"arm_args": ["skills"]}',
  ]);
  ok(!exists(join(t, "out")));
  const page = await Deno.readTextFile(join(ROOT, "docs", "import.md"));
  ok(page.includes(`\n${issueLines(refused.stderr)[0]}\n`), "docs/import.md shows the line");

  // The mapping's environment cannot replace the header's: one line saying what to do instead.
  const env = await mapping(t, "env.json", {
    provenance: { environment: { name: "toy", version: "1", config_sha256: "x" } },
  });
  const overridden = await gate(t, importArgs("bare.eval", "masked.eval", "out", env));
  equal(overridden.code, 2);
  match(
    issueLines(overridden.stderr)[0]!,
    /^schema_error {2}env\.json provenance\.environment {2}the inspect_ai log bare\.eval records the environment \(eval\.task, eval\.task_version, eval\.task_args and eval\.dataset\); the mapping cannot replace it: name the task arguments that are the arm's own in "inspect": \{"arm_args": \[\.\.\.\]\} instead$/,
  );

  const arm = await mapping(t, "arm.json", { inspect: { arm_args: ["skills"] } });
  const imported = await gate(t, importArgs("bare.eval", "masked.eval", "out", arm));
  equal(imported.code, 0, imported.stderr);
  const doc = await readJson(join(t, "out", "import.json"));
  const bareManifest = await readJson(join(t, "out", doc.runs[0].dir, "manifest.json"));
  const maskedManifest = await readJson(join(t, "out", doc.gates[0].dir, "manifest.json"));
  equal(
    bareManifest.provenance.environment.config_sha256,
    maskedManifest.provenance.environment.config_sha256,
  );
  deepEqual(bareManifest.provenance.inspect.arm_args, {});
  deepEqual(maskedManifest.provenance.inspect.arm_args, {
    "task_args.skills": ["a.v1", "b.v1", "c.v1"],
  });
  deepEqual(doc.columns[0].arm_args, ["skills"]);
  const validated = await gate(t, ["validate", "out", "--out", "v"]);
  equal(validated.code, 0, validated.stdout);

  // Another argument that differs is still refused, naming only it.
  await writeLog(
    t,
    "masked-level.eval",
    toyLog("masked", { eval: { task_args: { level: 3, skills: ["a.v1"] } } }),
  );
  const level = await gate(t, importArgs("bare.eval", "masked-level.eval", "out2", arm));
  equal(level.code, 2);
  match(
    issueLines(level.stderr)[0]!,
    /in eval\.task_args\.level \(bare 2, masked 3\); .*"inspect": \{"arm_args": \["skills","level"\]\}$/,
  );
});

Deno.test("import inspect: masked samples without metadata.injected are one line; a mask object is imported", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await writeLog(t, "bare.eval", toyLog("bare", { tasks: 200 }));
  await writeLog(
    t,
    "masked.eval",
    toyLog("masked", {
      tasks: 200,
      sample: (s, k) => {
        s.metadata = { difficulty: "easy", skills_used: toyMask(k) };
      },
    }),
  );
  const refused = await gate(t, importArgs("bare.eval", "masked.eval", "out"));
  equal(refused.code, 2);
  deepEqual(issueLines(refused.stderr), [
    'schema_error  masked.eval:1 metadata.injected  200 of 200 masked sample(s) have no metadata.injected (the version ids placed in the prompt); their metadata has "difficulty", "skills_used"; name the key that holds them in the mapping: "inspect": {"injected": "metadata.skills_used"} (a list of version ids, or a mask {"<version_id>": 0 or 1})',
  ]);
  const used = await mapping(t, "used.json", { inspect: { injected: "metadata.skills_used" } });
  const byList = await gate(t, importArgs("bare.eval", "masked.eval", "list", used));
  equal(byList.code, 0, byList.stderr);

  // The mask as an object {version_id: 0 | 1}: the same gate as the list.
  await writeLog(
    t,
    "masked-dict.eval",
    toyLog("masked", {
      tasks: 200,
      sample: (s, k) => {
        const present = toyMask(k);
        s.metadata = {
          mask: Object.fromEntries(
            ["a.v1", "b.v1", "c.v1"].map((v) => [v, present.includes(v) ? 1 : 0]),
          ),
        };
      },
    }),
  );
  const dict = await mapping(t, "dict.json", { inspect: { injected: "metadata.mask" } });
  const byDict = await gate(t, importArgs("bare.eval", "masked-dict.eval", "dict", dict));
  equal(byDict.code, 0, byDict.stderr);
  const doc = await readJson(join(t, "dict", "import.json"));
  const fromDict = await traces(join(t, "dict", doc.gates[0].dir, "traces.jsonl"));
  const listDoc = await readJson(join(t, "list", "import.json"));
  const fromList = await traces(join(t, "list", listDoc.gates[0].dir, "traces.jsonl"));
  deepEqual(fromDict.map((l) => l.injected), fromList.map((l) => l.injected));
  deepEqual(fromDict[3].injected, toyMask(3));
  const validated = await gate(t, ["validate", "dict", "--out", "v"]);
  equal(validated.code, 0, validated.stdout);

  // A mask value that is not 0/1 names the sample and the version.
  await writeLog(
    t,
    "masked-bad.eval",
    toyLog("masked", {
      tasks: 200,
      sample: (s) => {
        s.metadata = { mask: { "a.v1": 2 } };
      },
    }),
  );
  const bad = await gate(t, importArgs("bare.eval", "masked-bad.eval", "bad", dict));
  equal(bad.code, 2);
  match(
    issueLines(bad.stderr)[0]!,
    /^schema_error {2}masked-bad\.eval:1 metadata\.mask {2}metadata\.mask is a mask whose value for "a\.v1" is 2, not 0 or 1$/,
  );
});

Deno.test("import inspect: an errored sample is a failed attempt; its retried errors are failed attempts before it; a limit is no error", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await writeLog(t, "masked.eval", toyLog("masked"));
  // score_on_error: the error is set and the scores are kept; and an error given as text.
  for (
    const [name, error] of [
      ["scored", { message: "sandbox timeout\nTraceback ...", traceback: "", traceback_ansi: "" }],
      ["text", "boom"],
    ] as const
  ) {
    await writeLog(
      t,
      `bare-${name}.json`,
      toyLog("bare", {
        sample: (s, k) => {
          if (k === 3) s.error = error;
        },
      }),
    );
    const refused = await gate(t, importArgs(`bare-${name}.json`, "masked.eval", `out-${name}`));
    equal(refused.code, 2, refused.stderr);
    deepEqual(issueLines(refused.stderr), [
      `coverage_incomplete  bare-${name}.json:4 error  sample t003 epoch 1 ended in an error (${
        name === "text" ? '"boom"' : '"sandbox timeout Traceback ..."'
      }) and no attempt of it completed, so the bare run has no reward for it; re-run the errored samples (inspect eval-retry bare-${name}.json) and import the log that holds their retries`,
    ]);
    ok(!exists(join(t, `out-${name}`)));
  }
  // Retried: inspect_ai keeps the errors of the attempts before the one that completed.
  await writeLog(
    t,
    "bare-retried.eval",
    toyLog("bare", {
      sample: (s, k) => {
        if (k === 3) {
          s.error_retries = [{ message: "rate limited", traceback: "", traceback_ansi: "" }];
        }
        // Halted by a limit: scored, not an error, in inspect_ai.
        if (k === 4) s.limit = { type: "message", limit: 10 };
      },
    }),
  );
  const imported = await gate(t, importArgs("bare-retried.eval", "masked.eval", "retried"));
  equal(imported.code, 0, imported.stderr);
  const doc = await readJson(join(t, "retried", "import.json"));
  const bare = await traces(join(t, "retried", doc.runs[0].dir, "traces.jsonl"));
  deepEqual(
    bare.filter((l) => l.task_id === "t003").map((l) => [l.attempt, l.status, l.reward, l.error]),
    [[0, "failed", null, "rate limited"], [1, "completed", 0.1, null]],
  );
  deepEqual(
    bare.filter((l) => l.task_id === "t004").map((l) => [l.attempt, l.status, l.reward]),
    [[0, "completed", 0.8]],
  );
  const validated = await gate(t, ["validate", "retried", "--out", "v"]);
  equal(validated.code, 0, validated.stdout);
});

Deno.test("import inspect: a sample inspect_ai wrote again supersedes its errored record, as inspect_ai reads it", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await writeLog(t, "masked.eval", toyLog("masked"));
  const bare = toyLog("bare");
  const entries = (log: ToyLog) => [
    deflated("header.json", JSON.stringify(log.header)),
    ...log.samples.map((s) => deflated(`samples/${s.id}_epoch_1.json`, JSON.stringify(s))),
  ];
  // `inspect ctl sample requeue`: the errored record first, the fresh run under the same name.
  const erroredRun = { ...structuredClone(bare.samples[5]!), error: { message: "sandbox died" } };
  const requeued = [deflated("samples/t005_epoch_1.json", JSON.stringify(erroredRun))];
  const honest = entries(bare);
  await Deno.writeFile(
    join(t, "requeued.eval"),
    rawZip([honest[0]!, ...requeued, ...honest.slice(1)]),
  );
  const imported = await gate(t, importArgs("requeued.eval", "masked.eval", "out"));
  equal(imported.code, 0, imported.stderr);
  const doc = await readJson(join(t, "out", "import.json"));
  const lines = await traces(join(t, "out", doc.runs[0].dir, "traces.jsonl"));
  deepEqual(
    lines.filter((l) => l.task_id === "t005").map((l) => [l.attempt, l.status, l.error]),
    [[0, "failed", "sandbox died"], [1, "completed", null]],
  );
  const validated = await gate(t, ["validate", "out", "--out", "v"]);
  equal(validated.code, 0, validated.stdout);
  // The same record written twice is one record: nothing to choose between.
  await Deno.writeFile(
    join(t, "twice.eval"),
    rawZip([...honest, deflated("samples/t005_epoch_1.json", JSON.stringify(bare.samples[5]))]),
  );
  const twice = await gate(t, importArgs("twice.eval", "masked.eval", "twice"));
  equal(twice.code, 0, twice.stderr);
  const twiceDoc = await readJson(join(t, "twice", "import.json"));
  const twiceLines = await traces(join(t, "twice", twiceDoc.runs[0].dir, "traces.jsonl"));
  equal(twiceLines.filter((l) => l.task_id === "t005").length, 1);
});

Deno.test("import: an input given twice, or for both arms, is refused in one line naming both", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await writeLog(t, "bare.eval", toyLog("bare"));
  await writeLog(t, "masked.eval", toyLog("masked"));
  await Deno.copyFile(join(t, "masked.eval"), join(t, "copy.eval"));
  const cases: [string[], RegExp][] = [
    [
      ["--masked", "masked.eval", "masked.eval"],
      /^usage_error {2}--masked masked\.eval and --masked masked\.eval are one file: its rows would be imported twice; give each input once$/,
    ],
    [
      ["--masked", "masked.eval", "copy.eval"],
      /^usage_error {2}--masked masked\.eval and --masked copy\.eval have the same content \(sha256 [0-9a-f]{12}\.\.\.\): its rows would be imported twice; give each input once$/,
    ],
    [
      ["--masked", "bare.eval"],
      /^usage_error {2}--bare bare\.eval and --masked bare\.eval are one file: a masked run cannot be its own bare run; give --bare the log of the run without the skill$/,
    ],
  ];
  for (const [masked, line] of cases) {
    const ran = await gate(t, [
      "import",
      "inspect",
      "--bare",
      "bare.eval",
      ...masked,
      "--out",
      "o",
    ]);
    equal(ran.code, 2, ran.stderr);
    const lines = ran.stderr.trimEnd().split("\n");
    equal(lines.length, 1, ran.stderr);
    match(lines[0]!, line);
    ok(!exists(join(t, "o")));
  }
  await Deno.writeTextFile(join(t, "rows.csv"), smallCsv());
  await Deno.copyFile(join(t, "rows.csv"), join(t, "again.csv"));
  const table = await gate(t, ["import", "table", "rows.csv", "again.csv", "--out", "o"]);
  equal(table.code, 2);
  match(
    table.stderr,
    /^usage_error {2}rows\.csv and again\.csv have the same content \(sha256 [0-9a-f]{12}\.\.\.\): its rows would be imported twice; give each input once\n$/,
  );
  ok(!exists(join(t, "o")));
});
