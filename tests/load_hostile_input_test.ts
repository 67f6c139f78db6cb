/**
 * Inputs that used to crash or hang validation and analysis (issue 9,
 * item 12), each turned into issues with a code, file and line: deep JSON
 * nesting, rewards whose squares overflow, a FIFO in place of traces.jsonl,
 * a gate with zero tasks, control characters in printed values, duplicate
 * JSON keys, invalid UTF-8, and a line longer than many read chunks.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { formatIssue, type Issue } from "../lib/core/issue.ts";
import { forEachJsonlLine } from "../lib/load/jsonl.ts";
import { MAX_JSON_DEPTH, parseJsonText } from "../lib/load/json_text.ts";
import { run as analyzeCli } from "../lib/cli/analyze.ts";
import { mutateJson, mutateJsonl, quiet, tempDir, writeGateFixture } from "./fixtures.ts";

type Fx = Awaited<ReturnType<typeof writeGateFixture>>;

async function validateMutated(
  mutate: (fx: Fx) => Promise<void>,
  options: Parameters<typeof writeGateFixture>[1] = {},
): Promise<{ counts: Record<string, number>; issues: readonly Issue[]; fx: Fx }> {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, options);
  await mutate(fx);
  const v = await validateGates([fx.gateDir]);
  return { counts: v.counts, issues: v.issues, fx };
}

Deno.test("JSON nested 6,000 levels deep in a trace's provenance is a parse_error on its line", async () => {
  const r = await validateMutated((fx) =>
    mutateJsonl(join(fx.gateDir, "traces.jsonl"), (o, line) => {
      if (line !== 2) return o;
      // Built as text: JSON.stringify itself cannot serialise this depth.
      const text = JSON.stringify({ ...o, provenance: { marker: 1 } });
      return text.replace(
        '{"marker":1}',
        '{"deep":' + '{"x":'.repeat(6000) + "1" + "}".repeat(6001),
      );
    })
  );
  const issue = r.issues.find((i) => i.code === "parse_error")!;
  deepEqual([issue.line, issue.message], [
    2,
    `line is nested 6002 levels deep; at most ${MAX_JSON_DEPTH} levels are read`,
  ]);
  // The path names the first value one level past the limit: the line's
  // object, provenance, deep, then 254 levels of x.
  deepEqual(issue.path, "provenance.deep" + ".x".repeat(MAX_JSON_DEPTH - 2));
});

Deno.test("JSON nested 6,000 levels deep in both manifests' sampling is a parse_error, not a stack overflow", async () => {
  const r = await validateMutated(async (fx) => {
    for (const dir of [fx.gateDir, fx.bareDir]) {
      const path = join(dir, "manifest.json");
      const text = await Deno.readTextFile(path);
      const deep = '{"x":'.repeat(6000) + "1" + "}".repeat(6000);
      await Deno.writeTextFile(
        path,
        text.replace('"sampling": {', `"sampling": {"deep": ${deep},`),
      );
    }
  });
  deepEqual(r.counts["parse_error"], 2);
  ok(r.issues.every((i) => i.code !== "parse_error" || i.file!.endsWith("manifest.json")));
  const deepPath = "provenance.sampling.deep" + ".x".repeat(MAX_JSON_DEPTH - 3);
  ok(r.issues.every((i) => i.code !== "parse_error" || i.path === deepPath));
});

Deno.test("nesting at the limit is read; one level more is refused", () => {
  const at = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
  deepEqual(parseJsonText(at).ok, true);
  deepEqual(parseJsonText("[" + at + "]").ok, false);
  // The path of the value past the limit: the items of 256 nested arrays.
  const over = parseJsonText('{"a": [' + at + "]}");
  deepEqual(over.ok ? null : over.path, "a" + "[]".repeat(MAX_JSON_DEPTH - 1));
  // Text too deep to parse is still walked for the path, even when it is not JSON.
  const bad = parseJsonText('{"k\\q": ' + "[".repeat(MAX_JSON_DEPTH + 1) + '"\\x"');
  deepEqual(bad.ok ? null : bad.path, "k\\q" + "[]".repeat(MAX_JSON_DEPTH - 1));
});

Deno.test("a reward of 1e308 is reward_out_of_range in validate, and analyze refuses it with exit 2", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path);
  await mutateJsonl(
    join(fx.gateDir, "traces.jsonl"),
    (o, line) =>
      line === 3 ? { ...o, reward: 1e308, rewards: { ...o.rewards, r_strict: 1e308 } } : o,
  );
  await mutateJsonl(
    join(fx.bareDir, "traces.jsonl"),
    (o, line) => line === 1 ? { ...o, rewards: { ...o.rewards, r_success: -2e100 } } : o,
  );
  const v = await validateGates([fx.gateDir]);
  deepEqual(
    v.issues.filter((i) => i.code === "reward_out_of_range").map((i) => [i.line, i.path]),
    [[1, "rewards.r_success"], [3, "reward"], [3, "rewards.r_strict"]],
  );
  // Large but harmless magnitudes (and rewards outside [0, 1]) stay valid.
  const fine = await validateMutated((f) =>
    mutateJsonl(
      join(f.gateDir, "traces.jsonl"),
      (o, line) =>
        line === 3 ? { ...o, reward: -1e99, rewards: { ...o.rewards, r_strict: -1e99 } } : o,
    )
  );
  deepEqual(fine.counts, {});
  const out = join(dir.path, "out");
  deepEqual(await quiet(() => analyzeCli([fx.gateDir, "--out", out, "--bootstrap", "0"])), 2);
  const doc = JSON.parse(await Deno.readTextFile(join(out, "validation.json")));
  deepEqual(doc.counts.reward_out_of_range, 3);
});

Deno.test("a FIFO in place of traces.jsonl is an io_error at once (it used to block forever)", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path);
  const traces = join(fx.gateDir, "traces.jsonl");
  await Deno.remove(traces);
  const mkfifo = await new Deno.Command("mkfifo", { args: [traces] }).output();
  ok(mkfifo.success, "mkfifo failed");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), 20_000);
  });
  const v = await Promise.race([validateGates([fx.gateDir]), timeout]);
  clearTimeout(timer);
  ok(v !== "timeout", "validation blocked on the FIFO");
  const io = v.issues.find((i) => i.code === "io_error")!;
  deepEqual([io.file, io.message], [traces, "cannot read file: not a regular file (a FIFO)"]);
  // A directory in place of the manifest is named the same way.
  await Deno.remove(join(fx.bareDir, "manifest.json"));
  await Deno.mkdir(join(fx.bareDir, "manifest.json"));
  const w = await validateGates([fx.gateDir]);
  ok(
    w.issues.some((i) =>
      i.code === "io_error" && i.message === "cannot read file: not a regular file (a directory)"
    ),
  );
});

Deno.test("a gate with zero tasks is not_identifiable naming the masked manifest (validate used to say ok)", async () => {
  const r = await validateMutated(async (fx) => {
    for (const dir of [fx.gateDir, fx.bareDir]) {
      await mutateJson(join(dir, "manifest.json"), (m) => void (m.tasks = []));
      await Deno.writeTextFile(join(dir, "traces.jsonl"), "");
    }
    await Deno.writeTextFile(join(fx.gateDir, "assignments.jsonl"), "");
  });
  deepEqual(r.counts, { not_identifiable: 1 });
  deepEqual([r.issues[0]!.file, r.issues[0]!.path], [join(r.fx.gateDir, "manifest.json"), "tasks"]);
});

Deno.test("a task id with a newline and an escape sequence prints as one line", async () => {
  const r = await validateMutated((fx) =>
    mutateJsonl(
      join(fx.gateDir, "traces.jsonl"),
      (o, line) => line === 1 ? { ...o, task_id: "t000\nok: 1 gate(s)\u001b[2J" } : o,
    )
  );
  const unplanned = r.issues.find((i) => i.code === "unplanned_episode")!;
  const printed = formatIssue(unplanned);
  ok(!["\n", "\r", "\u001b"].some((c) => printed.includes(c)), printed);
  ok(printed.includes("[val/t000\\nok: 1 gate(s)\\u001b[2J/0]"), printed);
  for (const issue of r.issues) ok(!formatIssue(issue).includes("\n"));
});

Deno.test("a duplicate key is a parse_error naming the key and the line (JSON.parse kept the last value)", async () => {
  const r = await validateMutated((fx) =>
    mutateJsonl(join(fx.gateDir, "traces.jsonl"), (o, line) => {
      if (line !== 4) return o;
      const text = JSON.stringify(o);
      return text.replace('"reward":', '"reward":0.123,"reward":');
    })
  );
  const issue = r.issues.find((i) => i.code === "parse_error")!;
  deepEqual([issue.line, issue.path, issue.message], [
    4,
    "reward",
    'line has the key "reward" twice in one object (JSON allows each key once)',
  ]);
  deepEqual(
    parseJsonText('{"a": [{"b": {"c": 1, "c\\u0000": 2, "c": 3}}]}'),
    {
      ok: false,
      why: 'has the key "a[].b.c" twice in one object (JSON allows each key once)',
      path: "a[].b.c",
    },
  );
  // Equal keys in different objects, and escaped colons in strings, are fine.
  deepEqual(parseJsonText('{"a": {"k": 1}, "b": {"k": "x\\u003a:"}, "k": ["\\"", ":"]}').ok, true);
});

/** Whether valid JSON text has a key twice in one object: a small recursive-descent reference. */
function hasDuplicateKey(text: string): boolean {
  const tokens = text.match(/"(?:[^"\\]|\\.)*"|[{}[\]:,]|[^{}[\]:,\s"]+/g) ?? [];
  let at = 0;
  const value = (): boolean => {
    const t = tokens[at++]!;
    if (t === "[") {
      let dup = false;
      while (tokens[at] !== "]") {
        dup = value() || dup;
        if (tokens[at] === ",") at++;
      }
      at++;
      return dup;
    }
    if (t !== "{") return false;
    const keys = new Set<string>();
    let dup = false;
    while (tokens[at] !== "}") {
      const key = JSON.parse(tokens[at]!) as string;
      dup = keys.has(key) || dup;
      keys.add(key);
      at += 2; // the key and ":"
      dup = value() || dup;
      if (tokens[at] === ",") at++;
    }
    at++;
    return dup;
  };
  return value();
}

Deno.test("parseJsonText refuses exactly the texts with a key twice in one object", () => {
  // Objects with keys and values drawn from a few strings (colons, quotes and
  // escapes included), so duplicate keys are frequent, written by hand.
  const str = fc.constantFrom("a", "b", "a:b", '"', "\\:", "{", "]");
  const json: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      str.map((s) => JSON.stringify(s)),
      fc.integer().map(String),
      fc.array(tie("value"), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
      fc.array(fc.tuple(str, tie("value")), { maxLength: 4 })
        .map((ms) => `{${ms.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`),
    ),
  })).value;
  fc.assert(
    fc.property(json, (text) => {
      const r = parseJsonText(text);
      deepEqual(r.ok, !hasDuplicateKey(text));
      if (r.ok) deepEqual(r.value, JSON.parse(text));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("a duplicate key in manifest.json is a parse_error of the file", async () => {
  const r = await validateMutated(async (fx) => {
    const path = join(fx.bareDir, "manifest.json");
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace('"repeats":', '"repeats": 2, "repeats":'));
  });
  const issue = r.issues.find((i) => i.code === "parse_error")!;
  deepEqual(
    issue.message,
    'file has the key "repeats" twice in one object (JSON allows each key once)',
  );
});

Deno.test("invalid UTF-8 is a parse_error on its line, not silently replaced", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "x.jsonl");
  const enc = new TextEncoder();
  const bytes = [
    enc.encode('{"a":"ok"}\n{"a":"'),
    new Uint8Array([0xc3, 0x28]), // a lead byte followed by an ASCII byte
    enc.encode('"}\n{"a":"é"}\n'),
  ];
  await Deno.writeFile(path, new Uint8Array(bytes.flatMap((b) => [...b])));
  const seen: unknown[] = [];
  const issues = await forEachJsonlLine(path, (v, line) => seen.push([line, v["a"]]), {
    label: "x.jsonl",
  });
  deepEqual(seen, [[1, "ok"], [3, "é"]]);
  deepEqual(issues.map((i) => [i.code, i.line, i.message]), [
    ["parse_error", 2, "line is not valid UTF-8"],
  ]);
  // And in a trace file, through validation: its episode is then uncovered.
  const r = await validateMutated(async (fx) => {
    const traces = join(fx.bareDir, "traces.jsonl");
    const text = await Deno.readTextFile(traces);
    const [first, ...rest] = text.split("\n");
    const [head, tail] = first!.split('"completed"');
    await Deno.writeFile(
      traces,
      new Uint8Array([
        ...enc.encode(head + '"compl'),
        0xff,
        ...enc.encode('ted"' + tail + "\n" + rest.join("\n")),
      ]),
    );
  });
  deepEqual(r.counts, { coverage_incomplete: 1, parse_error: 1 });
  const issue = r.issues.find((i) => i.code === "parse_error")!;
  deepEqual([issue.line, issue.message], [1, "line is not valid UTF-8"]);
});

Deno.test("lines spanning many read chunks, and a 3 MB line, are read whole and in order", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "long.jsonl");
  const long = "é".repeat(1_500_000); // 3 MB of two-byte characters
  const lines = [
    JSON.stringify({ i: 1, s: long }),
    "",
    JSON.stringify({ i: 3, s: "short" }),
    JSON.stringify({ i: 4, s: long.slice(7) }),
  ];
  await Deno.writeTextFile(path, lines.join("\n")); // no final newline
  const seen: [number, number, number][] = [];
  const issues = await forEachJsonlLine(path, (v, line) => {
    seen.push([line, v["i"] as number, (v["s"] as string).length]);
  });
  deepEqual(issues, []);
  deepEqual(seen, [[1, 1, 1_500_000], [3, 3, 5], [4, 4, 1_499_993]]);
});

Deno.test("only JSON's whitespace makes a blank JSONL line: U+FEFF, U+3000 and U+00A0 alone are parse_errors", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    // The file's own byte-order mark (before line 1) is skipped; any other U+FEFF is content.
    const lines = [
      '\uFEFF{"n":1}',
      " \t\r",
      "\uFEFF",
      "\u3000",
      "\u00A0 ",
      '{"n":2}\uFEFF',
      '{"n":3}',
    ];
    for (const chunked of [false, true]) {
      // Chunked: a long first line puts the later lines inside a read chunk, not at its start.
      const text = (chunked ? [`{"pad":"${"p".repeat(70_000)}"}`, ...lines.slice(1)] : lines)
        .join("\n");
      await Deno.writeTextFile(path, text);
      const seen: number[] = [];
      const issues = await forEachJsonlLine(path, (_v, line) => seen.push(line), {
        label: "x.jsonl",
      });
      deepEqual(seen, [1, 7]);
      deepEqual(issues.map((i) => [i.code, i.line]), [
        ["parse_error", 3],
        ["parse_error", 4],
        ["parse_error", 5],
        ["parse_error", 6],
      ]);
    }
  } finally {
    await Deno.remove(path);
  }
});
