/**
 * Real SIGINT and SIGTERM to a running `gate import table` (the CLI as a
 * subprocess, tests/gate_process.ts), early, while the new directory is
 * staged and while its gates are validated: the process ends with 130 or
 * 143 (or, before the write starts, by the signal itself), `--out` holds
 * the earlier import or the new one whole, and nothing is left beside it:
 * no lock, no journal, no new or old directory (issue 31 item 14).
 *
 * Needs `deno` on PATH.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { spawnGate, tree } from "./gate_process.ts";

/** A table of `tasks` tasks, a bare and a masked row each, two versions; `shift` moves the rewards. */
function table(tasks: number, shift: number): string {
  const lines = ["task_id,arm,reward,mask:a.v1,mask:b.v1,note"];
  for (let t = 0; t < tasks; t++) {
    const bare = ((t * 37) % 100) / 100;
    lines.push(`t${t},bare,${bare},0,0,n${t}`);
    lines.push(
      `t${t},masked,${bare + shift + (t & 1) / 10 + ((t >> 1) & 1) / 20},${t & 1},${
        (t >> 1) & 1
      },m${t}`,
    );
  }
  return lines.join("\n") + "\n";
}

Deno.test("gate import table: SIGINT and SIGTERM leave the earlier or the new import whole, exit 130/143, nothing beside --out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-import-signal-" });
  try {
    await Deno.writeTextFile(join(dir, "old.csv"), table(200, 0));
    await Deno.writeTextFile(join(dir, "new.csv"), table(40_000, 0.01));
    const older = ["import", "table", "old.csv", "--out", "k", "--quiet"];
    const newer = ["import", "table", "new.csv", "--out", "k", "--quiet"];
    const names = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    const run = async (args: string[]) => {
      const r = await spawnGate(dir, args).output();
      equal(r.code, 0, new TextDecoder().decode(r.stderr));
    };
    await run(newer);
    const NEW = tree(join(dir, "k"))!;
    await run(older);
    const OLD = tree(join(dir, "k"))!;
    const outcomes: string[] = [];
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      for (const moment of ["early", "staging", "verifying"] as const) {
        const child = spawnGate(dir, newer);
        const output = child.output();
        let exited = false;
        void output.then(() => (exited = true));
        if (moment === "early") await new Promise((r) => setTimeout(r, 300));
        else {
          // Staging: the new directory holds its first gate's traces; verifying: every file of it
          // (import.json last), so the validation of its gates is running.
          const file = moment === "staging"
            ? join("checkpoint-unrecorded", "bare-val", "traces.jsonl")
            : "import.json";
          const deadline = performance.now() + 120_000;
          while (!exited && performance.now() < deadline) {
            const staged = names().find((n) => n.startsWith(".k.gatelab-new-"));
            if (
              staged !== undefined &&
              (await Deno.lstat(join(dir, staged, file)).then(() => true, () => false))
            ) break;
            await new Promise((r) => setTimeout(r, 5));
          }
        }
        try {
          child.kill(signal);
        } catch { /* already exited */ }
        const ran = await output;
        const stderr = new TextDecoder().decode(ran.stderr);
        ok(
          !stderr.includes("crashed") && !stderr.includes("    at "),
          `${signal} ${moment}: ${stderr}`,
        );
        equal(ran.code, signal === "SIGINT" ? 130 : 143, `${signal} ${moment}: ${stderr}`);
        const now = JSON.stringify(tree(join(dir, "k")));
        const outcome = now === JSON.stringify(OLD)
          ? "old"
          : now === JSON.stringify(NEW)
          ? "new"
          : null;
        ok(
          outcome !== null,
          `${signal} at ${moment}: --out is neither the earlier nor the new import`,
        );
        deepEqual(
          names(),
          ["k", "new.csv", "old.csv"],
          `${signal} at ${moment}: left beside --out`,
        );
        if (ran.signal === null) {
          // Caught: the write stopped itself and said so.
          equal(
            stderr.trim(),
            outcome === "old"
              ? `interrupted  ${signal}: k is left as it was`
              : `interrupted  ${signal}: k holds the new result`,
          );
        }
        outcomes.push(`${signal}/${moment}: ${outcome}${ran.signal === null ? ", caught" : ""}`);
        if (outcome === "new") await run(older);
      }
    }
    console.log(`signal outcomes: ${outcomes.join("; ")}`);
    // The staged and verifying moments are inside the write: caught, and the earlier import kept.
    ok(outcomes.filter((o) => o.endsWith(": old, caught")).length >= 3, outcomes.join("; "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
