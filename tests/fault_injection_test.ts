/**
 * Fault injection against the real CLI (tests/gate_process.ts): user files
 * planted in --out, a symbolic link to a gate directory, cache faults,
 * disk full on a small tmpfs, read-only and mount-point outputs, and real
 * SIGINT/SIGTERM to a running `gate analyze`. Each case asserts the exit
 * code (0 or 2, never 1), the one line printed per issue, and that the
 * user's files and the earlier result are untouched.
 *
 * The mount cases need `mount` and `umount` (the test task has
 * --allow-run=mount,umount) and the right to mount (root); outside CI they
 * are skipped with a message when that is missing.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { join, relative } from "node:path";
import { DEMO, gate, tree } from "./gate_process.ts";

async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "gatelab-fault-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("fault: --out holding the user's files beside a gatelab JSON is refused, nothing deleted", async () => {
  await using u = await tempDir();
  const gateA = `${relative(u.path, DEMO)}/ckpt-a/gate-a`;
  const first = await gate(u.path, [
    "analyze",
    gateA,
    "--out",
    "a0",
    "--bootstrap",
    "0",
    "--quiet",
  ]);
  equal(first.code, 0, first.stderr);
  const failed = JSON.parse(await Deno.readTextFile(join(u.path, "a0", "validation.json")));
  failed.ok = false;
  const planted: Record<string, Record<string, string>> = {
    sel: { "selection.json": await Deno.readTextFile(join(u.path, "a0", "selection.json")) },
    contrib: {
      "contributions.json": await Deno.readTextFile(join(u.path, "a0", "contributions.json")),
    },
    failed: { "validation.json": `${JSON.stringify(failed, null, 2)}\n` },
    // the marker copied along too: the files it does not list are still the user's
    marked: {
      ".gatelab-output.json": await Deno.readTextFile(join(u.path, "a0", ".gatelab-output.json")),
      "selection.json": await Deno.readTextFile(join(u.path, "a0", "selection.json")),
    },
  };
  for (const [dir, files] of Object.entries(planted)) {
    await Deno.mkdir(join(u.path, dir, "notes"), { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(u.path, dir, name), text);
    }
    await Deno.writeTextFile(join(u.path, dir, "README.md"), "# my notes\n");
    await Deno.writeTextFile(join(u.path, dir, "notes", "todo.txt"), "read the paper\n");
    const before = tree(join(u.path, dir));
    for (const command of ["analyze", "validate"]) {
      const ran = await gate(u.path, [command, gateA, "--out", dir, "--quiet"]);
      equal(ran.code, 2, `${command} ${dir}: ${ran.stderr}`);
      equal(
        ran.stderr,
        `usage_error  --out ${dir} holds files gatelab did not write; ${dir}/README.md is the ` +
          "first, and the output directory is replaced whole, so move them away or give a new or " +
          "empty directory\n",
      );
      deepEqual(tree(join(u.path, dir)), before, `${command} ${dir}`);
    }
    // Without README.md the first foreign file is inside notes/.
    await Deno.remove(join(u.path, dir, "README.md"));
    const ran = await gate(u.path, ["validate", gateA, "--out", dir, "--quiet"]);
    equal(ran.code, 2);
    match(
      ran.stderr,
      new RegExp(
        `^usage_error  --out ${dir} holds files gatelab did not write; ${dir}/notes/todo\\.txt is the first`,
      ),
    );
    equal(await Deno.readTextFile(join(u.path, dir, "notes", "todo.txt")), "read the paper\n");
  }
  // No temporaries or locks left beside them.
  deepEqual([...Deno.readDirSync(u.path)].map((e) => e.name).sort(), [
    "a0",
    "contrib",
    "failed",
    "marked",
    "sel",
  ]);
});
