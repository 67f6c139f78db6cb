/**
 * The README stays what a new user can follow: short (at most 160 lines),
 * every command line in it runnable as written, and its mapping example
 * imports. A command line is an indented code line or a line of a fenced
 * block that starts with `npx -y deno@2.9.6 task`, `deno task` or `gate`:
 * its task must be one of deno.json's, and a `gate` command line (after
 * `deno task gate` or an installed `gate`) must parse with that command's
 * declaration (lib/cli/command_table.ts): a known command, known options,
 * values where they need one. The study file of "Your own data" is built
 * by tests/build_readme_test.ts; here the mapping example imports a table
 * whose columns it renames (tests/build_study.ts's generator, columns
 * renamed by hand) into the same gates as the table with gatelab's own
 * names.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkpointCsv, filesOf, gate, ROOT } from "./build_study.ts";
import { commandDecl } from "../lib/cli/command_table.ts";
import { parseCommand } from "../lib/cli/args.ts";

const README = Deno.readTextFileSync(join(ROOT, "README.md"));
const TASKS: Record<string, string> = JSON.parse(
  Deno.readTextFileSync(join(ROOT, "deno.json")),
).tasks;

/** The README's command lines, comments removed. */
function commandLines(): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of README.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const code = fenced ? line : line.startsWith("    ") ? line.trim() : "";
    const text = code.replace(/\s+#\s.*$/, "").trim();
    if (/^(npx -y deno@2\.9\.6 task|deno task|gate) /.test(text)) out.push(text);
  }
  return out;
}

/** Splits a shell line into words (double quotes only, as the README uses). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

Deno.test("README: at most 160 lines", () => {
  const lines = README.trimEnd().split("\n").length;
  ok(lines <= 160, `${lines} lines`);
});

Deno.test("README: every command line names a task of deno.json or parses as a gate command", () => {
  const lines = commandLines();
  ok(lines.length >= 10, lines.join("\n"));
  const gateLines: string[] = [];
  for (const line of lines) {
    const w = words(line.replace(/^npx -y deno@2\.9\.6 /, "deno "));
    if (w[0] === "deno") {
      ok(w[2]! in TASKS, `${line}: no task ${w[2]}`);
      if (w[2] === "gate") gateLines.push(w.slice(3).join("\0"));
    } else gateLines.push(w.slice(1).join("\0"));
  }
  for (const joined of gateLines) {
    const args = joined.split("\0").filter((a) => a !== "");
    if (args.length === 1 && args[0] === "--version") continue;
    const twoWords = commandDecl(args.slice(0, 2).join(" "));
    const decl = twoWords ?? commandDecl(args[0]!);
    ok(decl, `gate ${args.join(" ")}: no such command`);
    const rest = args.slice(twoWords ? 2 : 1);
    const parsed = parseCommand(rest, decl, { program: "gate" });
    ok(parsed !== null, `gate ${args.join(" ")}`);
  }
});

Deno.test("README: the mapping example imports a renamed table into the gates of the canonical one", async () => {
  const mapping = /```json\n([\s\S]*?)```/.exec(README)![1]!;
  const canonical = checkpointCsv("ck-200", 7);
  const [header, ...rows] = canonical.trimEnd().split("\n");
  equal(header, "task_id,arm,checkpoint_id,round,reward,mask:q.v1,mask:a.v1,mask:b.v1,mask:c.v1");
  const renamed = [
    "problem,condition,ckpt,round,score,m_q,m_a,m_b,m_c",
    ...rows.map((r) => r.replace(",bare,", ",base,").replace(",masked,", ",skill,")),
  ].join("\n") + "\n";
  const dir = await Deno.makeTempDir({ prefix: "gatelab-readme-" });
  try {
    await Deno.writeTextFile(join(dir, "mapping.json"), mapping);
    await Deno.writeTextFile(join(dir, "rollouts.csv"), renamed);
    await Deno.writeTextFile(join(dir, "canonical.csv"), canonical);
    const mapped = await gate(dir, [
      "import",
      "table",
      "rollouts.csv",
      "--map",
      "mapping.json",
      "--out",
      "runs",
    ]);
    equal(mapped.code, 0, mapped.stderr);
    const plain = await gate(dir, ["import", "table", "canonical.csv", "--out", "plain"]);
    equal(plain.code, 0, plain.stderr);
    const gates = (d: string) =>
      [...filesOf(join(dir, d))].filter(([path]) => path.endsWith("traces.jsonl"));
    const a = gates("runs");
    deepEqual(a.map(([p]) => p), [
      "ck-200/bare-val/traces.jsonl",
      "ck-200/gate-r1/traces.jsonl",
      "ck-200/gate-r2/traces.jsonl",
    ]);
    // The same attempts: the traces differ at most in the source file they name.
    const text = (b: Uint8Array) =>
      new TextDecoder().decode(b).replaceAll("canonical.csv", "rollouts.csv");
    deepEqual(a.map(([, b]) => text(b)), gates("plain").map(([, b]) => text(b)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
