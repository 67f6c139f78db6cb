/**
 * `gate sql` faults through the real CLI (issue 31 items 5, 6, 8 and 14,
 * issue 35 item 7): an --out inside an input, failing queries, control
 * characters, the time limit, long and deep query texts, signals while the
 * CSV is written, and how doubles are printed. The read-only rule has its
 * own corpus (tests/sql_read_only_test.ts).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { mutateJsonl, tempDir, writeGateFixture } from "./fixtures.ts";
import { spawnGate } from "./gate_process.ts";

/** Runs `gate sql` in-process; every printed line (stdout and stderr). */
async function sql(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const log = console.log, err = console.error;
  console.log = (s: string) => lines.push(...String(s).split("\n"));
  console.error = (s: string) => lines.push(...String(s).split("\n"));
  try {
    return { code: await main(["sql", ...args]), lines };
  } finally {
    console.log = log;
    console.error = err;
  }
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("sql --out naming an input, or a file inside one, is refused with one line; the input is untouched", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 3 });
  const traces = join(fx.gateDir, "traces.jsonl");
  const before = await Deno.readTextFile(traces);
  await Deno.symlink(traces, join(dir.path, "link.csv"));
  for (
    const out of [
      traces, // the gate's own traces
      join(fx.gateDir, "result.csv"), // a new file inside the gate
      join(fx.bareDir, "manifest.json"), // the bare run, outside the gate directory
      join(dir.path, "link.csv"), // a link to the traces
    ]
  ) {
    const { code, lines } = await sql([fx.gateDir, "--query", "select 1 as x", "--out", out]);
    equal(code, 2, out);
    equal(lines.length, 1, lines.join("\n"));
    match(
      lines[0]!,
      /^usage_error {2}--out .* (is|is inside) .*, which this command reads; write it elsewhere$/,
    );
  }
  equal(await Deno.readTextFile(traces), before);
  deepEqual(names(fx.gateDir).includes("result.csv"), false);
  const fine = await sql([
    fx.gateDir,
    "--query",
    "select 1 as x",
    "--out",
    join(dir.path, "x.csv"),
  ]);
  equal(fine.code, 0, fine.lines.join("\n"));
});

Deno.test("a failing query is exit 2 with DuckDB's message as one line, and --out keeps the earlier file", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 3 });
  const out = join(dir.path, "out.csv");
  await Deno.writeTextFile(out, "earlier\n");
  const failing: [string, RegExp][] = [
    ["select 'a'::INT", /Conversion Error: Could not convert string 'a' to INT32$/],
    ["select error('boom')", /Invalid Error: boom$/],
    // Fails on a row in the middle of the scan (the bundle's one-call query returned 0 rows).
    [
      "select task_id::INT from attempts",
      /Conversion Error: Could not convert string 't000' to INT32$/,
    ],
    [
      "select length(repeat('x', 3e9))",
      /Binder Error: No function matches .*repeat\(VARCHAR, BIGINT\).* \(query line 1\)$/,
    ],
    [
      "select * from atempts",
      /Catalog Error: Table with name atempts does not exist! Did you mean "attempts"\? \(query line 1\)$/,
    ],
    ["select from where", /Parser Error: syntax error at or near "where" \(query line 1\)$/],
  ];
  for (const [query, message] of failing) {
    for (const args of [[], ["--out", out]]) {
      const { code, lines } = await sql([fx.gateDir, "--query", query, ...args]);
      equal(code, 2, query);
      equal(lines.length, 1, `${query}: ${lines.join(" | ")}`);
      ok(lines[0]!.startsWith(`sql_error  ${query}  `), lines[0]);
      match(lines[0]!, message);
    }
  }
  equal(await Deno.readTextFile(out), "earlier\n");
  deepEqual(names(dir.path), ["bare-val", "gate", "out.csv"]);
});

Deno.test("control characters in cells and in task ids reach the terminal as escapes", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 3 });
  const { code, lines } = await sql([
    fx.gateDir,
    "--query",
    "select chr(27) || '[2J' || chr(7) as cell, 'a' || chr(10) || 'b' as two_lines",
  ]);
  equal(code, 0);
  ok(!lines.join("\n").includes("\x1b") && !lines.join("\n").includes("\x07"));
  deepEqual(lines, [
    "cell     two_lines",
    "-------  ---------",
    "\\e[2J\\a  a\\nb",
    "(1 row)",
  ]);
  // The CSV keeps the exact text.
  const out = join(dir.path, "cells.csv");
  equal((await sql([fx.gateDir, "--query", "select chr(27) as c", "--out", out])).code, 0);
  equal(await Deno.readTextFile(out), "c\n\x1b\n");
  // analyze's lines about a task id holding ESC and BEL: never raw.
  await mutateJsonl(join(fx.gateDir, "traces.jsonl"), (o, line) => {
    if (line === 1) o.task_id = "t\x1b]0;owned\x07";
    return o;
  });
  const printed: string[] = [];
  const log = console.log, err = console.error;
  console.log = (s: string) => printed.push(String(s));
  console.error = (s: string) => printed.push(String(s));
  let analyzed: number;
  try {
    analyzed = await main([
      "analyze",
      fx.gateDir,
      "--out",
      join(dir.path, "a"),
      "--bootstrap",
      "0",
    ]);
  } finally {
    console.log = log;
    console.error = err;
  }
  equal(analyzed, 2);
  const text = printed.join("\n");
  ok(text.includes("owned"), text);
  // deno-lint-ignore no-control-regex
  ok(!/[\x07\x1b]/.test(text), text);
});

Deno.test("--timeout stops a query that does not end: one line, exit 2", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  const started = performance.now();
  const { code, lines } = await sql([
    fx.gateDir,
    "--timeout",
    "1",
    "--query",
    "with recursive t(n) as (select 1 union all select n + 1 from t) select count(*) from t",
  ]);
  const seconds = (performance.now() - started) / 1000;
  equal(code, 2);
  deepEqual(lines.length, 1, lines.join("\n"));
  match(
    lines[0]!,
    /^sql_timeout {2}with recursive .* {2}the query ran longer than 1 second and was stopped$/,
  );
  ok(seconds < 30, `${seconds} s`);
  const bad = await sql([fx.gateDir, "--timeout", "soon", "--query", "select 1"]);
  deepEqual(bad, {
    code: 2,
    lines: ['usage_error  --timeout must be a non-negative number, got "soon"'],
  });
});

Deno.test("long and deeply nested query texts: a 100 KB query runs, longer ones and engine faults are one line", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  // 100,000 characters crashed the engine (the text was copied onto its 256 KiB stack).
  const long = `select count(*) as n from attempts /* ${"x".repeat(100_000)} */`;
  const ran = await sql([fx.gateDir, "--query", long]);
  equal(ran.code, 0, ran.lines.join("\n"));
  deepEqual(ran.lines, ["n", "-", "4", "(1 row)"]);
  const tooLong = await sql([fx.gateDir, "--query", `select 1 /*${"x".repeat(1_000_000)}*/`]);
  equal(tooLong.code, 2);
  deepEqual(tooLong.lines.length, 1);
  match(
    tooLong.lines[0]!,
    /^sql_error {2}select 1 \/\*x+\.\.\. {2}the query is 1000013 characters long; at most 1000000 are sent to DuckDB$/,
  );
  // A deep expression: DuckDB's own error, or the engine's fault, as one line, never a stack trace.
  for (const depth of [150, 1500]) {
    const deep = await sql([fx.gateDir, "--query", `select ${Array(depth).fill("1").join("+")}`]);
    equal(deep.code, 2, `${depth}`);
    deepEqual(deep.lines.length, 1, deep.lines.join("\n"));
    match(deep.lines[0]!, /^sql_(error|engine) {2}select 1\+1\+1.* {2}\S/);
    ok(!deep.lines[0]!.includes("    at "), deep.lines[0]);
  }
});

Deno.test("doubles print as the shortest decimal within 1e-12, --full-precision and the CSV exactly", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  const query =
    "select 0.1::double + 0.2::double as x, '0.48304687500000004'::double as y, 0.1::float as f";
  const shown = await sql([fx.gateDir, "--query", query]);
  equal(shown.code, 0);
  deepEqual(shown.lines, [
    "  x            y    f",
    "---  -----------  ---",
    "0.3  0.483046875  0.1",
    "(1 row)",
  ]);
  const full = await sql([fx.gateDir, "--query", query, "--full-precision"]);
  deepEqual(full.lines[2], "0.30000000000000004  0.48304687500000004  0.10000000149011612");
  const out = join(dir.path, "x.csv");
  equal((await sql([fx.gateDir, "--query", query, "--out", out])).code, 0);
  equal(
    await Deno.readTextFile(out),
    "x,y,f\n0.30000000000000004,0.48304687500000004,0.10000000149011612\n",
  );
});

Deno.test("SIGINT and SIGTERM while sql --out writes: exit 130/143, the earlier file whole, no temporary left", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  const out = join(dir.path, "big.csv");
  await Deno.writeTextFile(out, "earlier\n");
  const query = "select range as i, repeat('x', 60) as pad from range(1500000)";
  for (const [signal, expected] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
    const child = spawnGate(dir.path, ["sql", fx.gateDir, "--query", query, "--out", "big.csv"]);
    const output = child.output();
    let exited = false;
    void output.then(() => (exited = true));
    const deadline = performance.now() + 120_000;
    let temporary: string | undefined;
    while (!exited && performance.now() < deadline && temporary === undefined) {
      temporary = names(dir.path).find((n) => n.startsWith(".big.csv.tmp-"));
      await new Promise((r) => setTimeout(r, 5));
    }
    ok(temporary !== undefined, "the CSV's temporary file appeared");
    child.kill(signal);
    const ran = await output;
    const stderr = new TextDecoder().decode(ran.stderr);
    equal(ran.code, expected, `${signal}: ${stderr}`);
    match(stderr, /sql: interrupted; big\.csv left as it was/);
    equal(await Deno.readTextFile(out), "earlier\n");
    deepEqual(names(dir.path), ["bare-val", "big.csv", "gate"]);
  }
});

Deno.test("docs/validation.md: the failing-query lines are what gate sql prints", async () => {
  const text = await Deno.readTextFile(new URL("../docs/validation.md", import.meta.url));
  const at = text.indexOf("A query with a typo, and two statements:");
  ok(at >= 0, "the example is missing");
  const block = text.slice(
    text.indexOf("```\n", at) + 4,
    text.indexOf("\n```", text.indexOf("```\n", at) + 4),
  )
    .split("\n");
  for (let i = 0; i < block.length; i += 2) {
    const query = /--query "(.*)"$/.exec(block[i]!)![1]!;
    const printed = await sql([join("data", "demo", "ckpt-a", "gate-a"), "--query", query]);
    deepEqual(printed, { code: 2, lines: [block[i + 1]!] });
  }
});
