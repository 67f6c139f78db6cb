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
import { deepEqual, equal, match, notDeepEqual } from "node:assert/strict";
import { writeGateFixture, writeRunFixture } from "./fixtures.ts";
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

Deno.test("fault: a symbolic link to a gate directory reads bare_run_dir from the real gate directory", async () => {
  await using u = await tempDir();
  const root = await Deno.realPath(u.path);
  // The real layout: study/gate with bare_run_dir "../bare-val" -> study/bare-val.
  await writeGateFixture(join(root, "study"), { effects: { c1: 0.3 } });
  await Deno.symlink(join(root, "study", "gate"), join(root, "link"));
  // Without a decoy, the link reads the real bare run (not "link/../bare-val" = root/bare-val).
  const direct = await gate(root, ["analyze", "study/gate", "--out", "direct", "--bootstrap", "0"]);
  equal(direct.code, 0, direct.stderr);
  const linked = await gate(root, ["analyze", "link", "--out", "linked", "--bootstrap", "0"]);
  equal(linked.code, 0, linked.stderr);
  // A decoy bare run beside the link, same tasks, different rewards: still not read.
  await writeRunFixture(join(root, "bare-val"), { arm: "bare", worldSeed: 99 });
  const decoyed = await gate(root, ["analyze", "link", "--out", "decoyed", "--bootstrap", "0"]);
  equal(decoyed.code, 0, decoyed.stderr);
  const contributions = async (dir: string) =>
    JSON.parse(await Deno.readTextFile(join(root, dir, "contributions.json")));
  const want = await contributions("direct");
  for (const dir of ["linked", "decoyed"]) {
    const got = await contributions(dir);
    // contributions.json names the real bare run, by its real path.
    deepEqual(got.baseline, { ...want.baseline, run_dir: join(root, "study", "bare-val") }, dir);
    deepEqual(got.metrics, want.metrics, dir);
    const validation = JSON.parse(await Deno.readTextFile(join(root, dir, "validation.json")));
    const bare = validation.inputs.find((i: { kind: string }) => i.kind === "bare");
    equal(bare.dir, join(root, "study", "bare-val"), dir);
  }
  // The decoy's rewards differ, so reading it would have changed the bare mean.
  notDeepEqual(
    await Deno.readTextFile(join(root, "bare-val", "traces.jsonl")),
    await Deno.readTextFile(join(root, "study", "bare-val", "traces.jsonl")),
  );
});
