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
import { deepEqual, equal, match, notDeepEqual, ok } from "node:assert/strict";
import { writeGateFixture, writeRunFixture } from "./fixtures.ts";
import { join, relative } from "node:path";
import { DEMO, gate, spawnGate, tree } from "./gate_process.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";
import { cachedLoadRunParts } from "../lib/cache/mod.ts";
import { writeFileAtomic, writeFilesAtomic } from "../lib/core/atomic_write.ts";
import { PathError } from "../lib/core/path_error.ts";
import { reportLeftover } from "../lib/core/_output_swap.ts";

/** Why mounting is not possible here, or null when it is (tried once: a tmpfs mounted and unmounted). */
async function mountBlocker(): Promise<string | null> {
  if (!mayRun("mount") || !mayRun("umount")) return "mount and umount are not in --allow-run";
  const dir = await Deno.makeTempDir({ prefix: "gatelab-mount-probe-" });
  try {
    const on = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!on.success) {
      return `mount is not permitted (${new TextDecoder().decode(on.stderr).trim()})`;
    }
    await run("umount", [dir]);
    return null;
  } catch (error) {
    return `mount cannot run (${error instanceof Error ? error.message : error})`;
  } finally {
    await Deno.remove(dir).catch(() => {});
  }
}
const MOUNT_BLOCKER = await mountBlocker();

/** The `ignore` of a test that mounts: never in CI (there it must run), else when mounting is blocked. */
function ignoreWithoutMount(test: string): boolean {
  if (MOUNT_BLOCKER === null || IN_CI) return false;
  console.warn(`${test}: skipped, ${MOUNT_BLOCKER}`);
  return true;
}

async function run(command: string, args: readonly string[]): Promise<void> {
  const out = await new Deno.Command(command, { args: [...args], stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/** A tmpfs of `size` (e.g. "64k") mounted on `dir` (made), unmounted on dispose. */
async function tmpfs(dir: string, size: string): Promise<AsyncDisposable> {
  await Deno.mkdir(dir, { recursive: true });
  await run("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  return { [Symbol.asyncDispose]: () => run("umount", ["-l", dir]) };
}

/** `dir` (made) becomes a read-only view of `source` (a bind mount), unmounted on dispose. */
async function readOnlyBind(source: string, dir: string): Promise<AsyncDisposable> {
  await Deno.mkdir(dir, { recursive: true });
  await run("mount", ["--bind", source, dir]);
  await run("mount", ["-o", "remount,ro,bind", dir]);
  return { [Symbol.asyncDispose]: () => run("umount", ["-l", dir]) };
}

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

/** validation.json's verdict: ok, issues and counts (inputs record the cache state, warnings its faults). */
async function verdict(dir: string): Promise<unknown> {
  const v = JSON.parse(await Deno.readTextFile(join(dir, "validation.json")));
  return { ok: v.ok, issues: v.issues, counts: v.counts };
}

const CACHE_LINE =
  /^cache_unwritable \(warning\) {2}\S+\.run {2}run cache entry cannot be written \(([^)]*)\); read \S+ without the cache \(the run's files are not at fault\)$/;

/** The reasons of the cache_unwritable lines on stderr (every other line is refused). */
function cacheWarnings(stderr: string): string[] {
  return stderr.trim().split("\n").filter((l) => l !== "").map((l) => {
    const m = l.match(CACHE_LINE);
    if (!m) throw new Error(`unexpected line: ${l}`);
    return m[1]!;
  });
}

Deno.test("fault: a run cache that cannot be written or read is a warning or a miss, never a crash", async () => {
  await using u = await tempDir();
  const gateA = `${relative(u.path, DEMO)}/ckpt-a/gate-a`;
  const plain = await gate(u.path, ["validate", gateA, "--out", "plain", "--quiet"]);
  equal(plain.code, 0, plain.stderr);
  const want = await verdict(join(u.path, "plain"));
  const warm = await gate(u.path, ["validate", gateA, "--out", "v", "--cache", "c", "--quiet"]);
  equal(warm.code, 0, warm.stderr);
  const entries = [...Deno.readDirSync(join(u.path, "c", "runs"))].map((e) => e.name).sort();
  equal(entries.length, 2);
  // Each entry path a directory: unreadable (a miss) and unwritable (a warning).
  for (const name of entries) {
    await Deno.remove(join(u.path, "c", "runs", name));
    await Deno.mkdir(join(u.path, "c", "runs", name));
  }
  const dirs = await gate(u.path, ["validate", gateA, "--out", "v1", "--cache", "c", "--quiet"]);
  equal(dirs.code, 0, dirs.stderr);
  deepEqual(cacheWarnings(dirs.stderr), ["Is a directory", "Is a directory"]);
  deepEqual(await verdict(join(u.path, "v1")), want);
  // Only the two directories remain: no temporary entry was left behind.
  deepEqual([...Deno.readDirSync(join(u.path, "c", "runs"))].map((e) => e.name).sort(), entries);
  // `runs` a regular file.
  await Deno.remove(join(u.path, "c"), { recursive: true });
  await Deno.mkdir(join(u.path, "c"));
  await Deno.writeTextFile(join(u.path, "c", "runs"), "not a directory\n");
  const file = await gate(u.path, ["validate", gateA, "--out", "v2", "--cache", "c", "--quiet"]);
  equal(file.code, 0, file.stderr);
  deepEqual(cacheWarnings(file.stderr), ["File exists", "File exists"]);
  deepEqual(await verdict(join(u.path, "v2")), want);
  equal(await Deno.readTextFile(join(u.path, "c", "runs")), "not a directory\n");
  // The cache directory replaced by a file while a run uses it (between the
  // read and the write of one run): a miss and a warning, in the library.
  const cacheFile = join(u.path, "gone");
  await Deno.writeTextFile(cacheFile, "x");
  const r = await cachedLoadRunParts(join(DEMO, "ckpt-a", "bare-val"), { cacheDir: cacheFile });
  equal(r.cache, "miss");
  deepEqual(r.parts.issues, []);
  deepEqual(r.warnings.map((w) => [w.code, w.severity]), [["cache_unwritable", "warning"]]);
  // --cache naming a file from the start is the user's path mistake.
  const named = await gate(u.path, ["validate", gateA, "--out", "v3", "--cache", "gone"]);
  equal(named.code, 2);
  equal(
    named.stderr,
    "usage_error  --cache gone is a file; expected a directory for the run cache\n",
  );
});

Deno.test({
  name: "fault: disk full and read-only run caches: a warning on a cold run, hits on a warm one",
  ignore: ignoreWithoutMount("fault: disk full and read-only run caches"),
  fn: async () => {
    await using u = await tempDir();
    const gateA = `${relative(u.path, DEMO)}/ckpt-a/gate-a`;
    const plain = await gate(u.path, ["validate", gateA, "--out", "plain", "--quiet"]);
    const want = await verdict(join(u.path, "plain"));
    equal(plain.code, 0);
    {
      // Disk full: a 16 KiB tmpfs holds neither entry (each is larger).
      await using _full = await tmpfs(join(u.path, "full"), "16k");
      const ran = await gate(u.path, [
        "validate",
        gateA,
        "--out",
        "v1",
        "--cache",
        "full",
        "--quiet",
      ]);
      equal(ran.code, 0, ran.stderr);
      deepEqual(cacheWarnings(ran.stderr), ["No space left on device", "No space left on device"]);
      deepEqual(await verdict(join(u.path, "v1")), want);
      deepEqual([...Deno.readDirSync(join(u.path, "full", "runs"))], [], "no partial entry left");
    }
    // Read-only and cold: warnings; read-only and warm: served from the cache.
    await Deno.mkdir(join(u.path, "empty"));
    const filled = await gate(u.path, [
      "validate",
      gateA,
      "--out",
      "v2",
      "--cache",
      "filled",
      "--quiet",
    ]);
    equal(filled.code, 0, filled.stderr);
    await using _cold = await readOnlyBind(join(u.path, "empty"), join(u.path, "ro-cold"));
    await using _warm = await readOnlyBind(join(u.path, "filled"), join(u.path, "ro-warm"));
    const cold = await gate(u.path, [
      "validate",
      gateA,
      "--out",
      "v3",
      "--cache",
      "ro-cold",
      "--quiet",
    ]);
    equal(cold.code, 0, cold.stderr);
    deepEqual(cacheWarnings(cold.stderr), ["Read-only file system", "Read-only file system"]);
    deepEqual(await verdict(join(u.path, "v3")), want);
    const hot = await gate(u.path, ["validate", gateA, "--out", "v4", "--cache", "ro-warm"]);
    equal(hot.code, 0, hot.stderr);
    match(hot.stdout, /cache: 2 hit; wrote v4\/validation\.json/);
    deepEqual(await verdict(join(u.path, "v4")), want);
  },
});

/** Fills the file system of `dir` to leave about `free` bytes (a filler file, whole pages). */
async function leaveFree(dir: string, free: number): Promise<void> {
  const filler = join(dir, "filler");
  using file = await Deno.open(filler, { write: true, create: true, truncate: true });
  const page = new Uint8Array(4096).fill(120);
  let written = 0;
  try {
    for (;;) written += await file.write(page);
  } catch { /* full */ }
  await file.truncate(Math.max(0, written - free));
}

const DISK_FULL_LINE = /^io_error {2}disk full while writing (\S+); (\S+) is left as it was\n$/;

Deno.test({
  name:
    "fault: disk full at several free sizes: exit 2 with one io_error line, the earlier result whole",
  ignore: ignoreWithoutMount("fault: disk full at several free sizes"),
  fn: async () => {
    await using u = await tempDir();
    const gateA = `${relative(u.path, DEMO)}/ckpt-a/gate-a`;
    const named: string[] = [];
    for (
      const [command, free] of [
        ["analyze", 0],
        ["analyze", 4096],
        ["analyze", 8192],
        ["analyze", 65536],
        ["analyze", 409600],
        ["validate", 0],
        ["validate", 4096],
      ] as const
    ) {
      await using _fs = await tmpfs(join(u.path, "disk"), "2m");
      const args = (out: string, b: string) =>
        command === "analyze"
          ? ["analyze", gateA, "--out", out, "--bootstrap", b, "--quiet"]
          : ["validate", gateA, "--out", out, "--quiet"]; // the same result again: only the write differs
      const first = await gate(u.path, args("disk/out", "0"));
      equal(first.code, 0, first.stderr);
      const before = tree(join(u.path, "disk", "out"));
      await leaveFree(join(u.path, "disk"), free);
      const ran = await gate(u.path, args("disk/out", "20"));
      const where = `${command} with ${free} bytes free`;
      ok(ran.code === 0 || ran.code === 2, `${where}: exit ${ran.code}: ${ran.stderr}`);
      if (ran.code === 2) {
        const m = ran.stderr.match(DISK_FULL_LINE);
        ok(m, `${where}: ${ran.stderr}`);
        equal(m[2], "disk/out");
        named.push(m[1]!);
        deepEqual(tree(join(u.path, "disk", "out")), before, where);
      }
      // Nothing beside --out but the filler: no temporary, no lock, no journal.
      deepEqual([...Deno.readDirSync(join(u.path, "disk"))].map((e) => e.name).sort(), [
        "filler",
        "out",
      ], where);
    }
    console.log(`disk full while writing: ${named.join(", ")}`);
    ok(named.includes("disk/.out.gatelab-lock"), named.join(", "));
    ok(named.includes("disk/.out.gatelab-journal"), named.join(", "));
    ok(named.some((n) => n.startsWith("disk/out/")), named.join(", "));
  },
});

const MOUNT_POINT_TAIL =
  " is a mount point (or in use), and gatelab replaces an output directory " +
  "whole by renaming it, which a mount point cannot be; choose a directory inside the mount\n";

Deno.test({
  name:
    "fault: --out a mount point or a bind mount: exit 2 naming it, the earlier result untouched",
  ignore: ignoreWithoutMount("fault: --out a mount point"),
  fn: async () => {
    await using u = await tempDir();
    const gateA = `${relative(u.path, DEMO)}/ckpt-a/gate-a`;
    const analyze = (out: string) =>
      gate(u.path, ["analyze", gateA, "--out", out, "--bootstrap", "0", "--quiet"]);
    {
      // Another file system mounted at --out: refused before any work.
      await using _m = await tmpfs(join(u.path, "mnt"), "4m");
      const ran = await analyze("mnt");
      equal(ran.code, 2);
      equal(ran.stderr, `usage_error  --out mnt${MOUNT_POINT_TAIL}`);
      deepEqual([...Deno.readDirSync(join(u.path, "mnt"))], []);
      // What the message advises works.
      equal((await analyze("mnt/a")).code, 0);
    }
    // A bind mount of the same file system (same device): the swap's rename is refused (EBUSY).
    equal((await analyze("src")).code, 0);
    const before = tree(join(u.path, "src"));
    for (const readOnly of [true, false]) {
      const dir = readOnly ? "ro" : "rw";
      await Deno.mkdir(join(u.path, dir));
      await run("mount", ["--bind", join(u.path, "src"), join(u.path, dir)]);
      try {
        if (readOnly) await run("mount", ["-o", "remount,ro,bind", join(u.path, dir)]);
        const ran = await gate(u.path, [
          "analyze",
          gateA,
          "--out",
          dir,
          "--bootstrap",
          "0",
          "--budget-k",
          "3",
          "--quiet",
        ]);
        equal(ran.code, 2, ran.stderr);
        equal(ran.stderr, `usage_error  ${dir}${MOUNT_POINT_TAIL}`);
        deepEqual(tree(join(u.path, dir)), before);
      } finally {
        await run("umount", [join(u.path, dir)]);
      }
      deepEqual(tree(join(u.path, "src")), before);
    }
    deepEqual([...Deno.readDirSync(u.path)].map((e) => e.name).sort(), ["mnt", "ro", "rw", "src"]);
  },
});

Deno.test({
  name:
    "fault: an earlier result that cannot be removed after the swap is reported, and removed by a later run",
  ignore: ignoreWithoutMount("fault: an earlier result that cannot be removed"),
  fn: async () => {
    await using u = await tempDir();
    const out = join(u.path, "out");
    await writeFilesAtomic(out, { "sub/a.txt": "1\n" });
    // A mount inside the output directory: it moves aside with it, and then
    // cannot be removed (EBUSY) while mounted.
    await run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", join(out, "sub")]);
    await Deno.writeTextFile(join(out, "sub", "a.txt"), "1\n");
    const told: string[] = [];
    const onLeftover = (path: string, why: string) => told.push(`${path}: ${why}`);
    let moved: string | undefined;
    try {
      await writeFilesAtomic(out, { "b.txt": "2\n" }, { onLeftover });
      deepEqual(tree(out), {
        ".gatelab-output.json": tree(out)![".gatelab-output.json"]!,
        "b.txt": "2\n",
      });
      moved = [...Deno.readDirSync(u.path)].map((e) => e.name).find((n) =>
        n.startsWith(".out.gatelab-old-")
      );
      ok(moved, "the earlier directory is still beside --out");
      deepEqual(told, [`${join(u.path, moved)}: Device or resource busy`]);
      // The next run says so again while it still cannot remove it.
      await writeFilesAtomic(out, { "c.txt": "3\n" }, { onLeftover });
      deepEqual(told.length, 2);
      equal(told[1], `${join(u.path, moved)}: Device or resource busy`);
    } finally {
      await run("umount", ["-l", join(u.path, moved ?? "out", "sub")]);
    }
    // Once it can, the next run removes it, silently.
    await writeFilesAtomic(out, { "d.txt": "4\n" }, { onLeftover });
    equal(told.length, 2);
    deepEqual([...Deno.readDirSync(u.path)].map((e) => e.name), ["out"]);
    // The default report is one line on stderr.
    const lines: string[] = [];
    const error = console.error;
    console.error = (line: string) => lines.push(line);
    try {
      reportLeftover("p/.out.gatelab-old-1-abcdef12", "Permission denied");
    } finally {
      console.error = error;
    }
    deepEqual(lines, [
      "warning: the earlier result moved aside to p/.out.gatelab-old-1-abcdef12 cannot be removed " +
      "(Permission denied); the next run into the same --out removes it, or remove it yourself",
    ]);
  },
});

Deno.test("fault: bare_run_dir naming the gate itself or a link loop is one issue line on gate.json's field", async () => {
  await using u = await tempDir();
  const cases: [string, string, string][] = [
    [".", "provenance_mismatch", 'bare_run_dir "." names the gate directory itself'],
    ["../gate", "provenance_mismatch", 'bare_run_dir "../gate" names the gate directory itself'],
    [
      "../to-gate",
      "provenance_mismatch",
      'bare_run_dir "../to-gate" names the gate directory itself',
    ],
    ["../loop", "io_error", 'bare_run_dir "../loop" runs into a loop of symbolic links (x/loop)'],
  ];
  const fx = await writeGateFixture(join(u.path, "x"));
  await Deno.symlink("gate", join(u.path, "x", "to-gate"));
  await Deno.symlink("loop", join(u.path, "x", "loop"));
  const plan = JSON.parse(await Deno.readTextFile(join(fx.gateDir, "gate.json")));
  for (const [bare, code, message] of cases) {
    await Deno.writeTextFile(
      join(fx.gateDir, "gate.json"),
      JSON.stringify({ ...plan, bare_run_dir: bare }, null, 2),
    );
    for (const command of ["validate", "analyze"]) {
      const ran = await gate(u.path, [
        command,
        "x/gate",
        "--out",
        "o",
        ...(command === "analyze" ? ["--bootstrap", "0"] : []),
      ]);
      equal(ran.code, 2, `${bare}: ${ran.stderr}`);
      const lines = ran.stdout.trim().split("\n");
      equal(lines.length, 2, `${command} ${bare}: ${ran.stdout}`);
      ok(lines[0]!.startsWith(`${code}  x/gate/gate.json bare_run_dir  ${message}`), lines[0]);
      match(lines[1]!, new RegExp(`^not ok: 1 issue\\(s\\) \\(${code} 1\\); wrote o`));
    }
  }
});

Deno.test("fault: SIGINT and SIGTERM to a running gate analyze leave the earlier or the new result, and the next run cleans up", async () => {
  await using u = await tempDir();
  const gateA = relative(u.path, join(DEMO, "ckpt-a", "gate-a"));
  const older = ["analyze", gateA, "--out", "k", "--bootstrap", "0", "--budget-k", "5", "--quiet"];
  const newer = ["analyze", gateA, "--out", "k", "--bootstrap", "1500", "--quiet"];
  const names = () => [...Deno.readDirSync(u.path)].map((e) => e.name).sort();
  // The ledger in --out is merged by key: settle it so OLD and NEW are fixed texts.
  for (const args of [older, newer, older]) equal((await gate(u.path, args)).code, 0);
  const OLD = tree(join(u.path, "k"))!;
  equal((await gate(u.path, newer)).code, 0);
  const NEW = tree(join(u.path, "k"))!;
  equal((await gate(u.path, older)).code, 0);
  const outcomes: string[] = [];
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const moment of ["early", "journal", "staging"] as const) {
      const child = spawnGate(u.path, newer);
      const output = child.output();
      let exited = false;
      void output.then(() => (exited = true));
      if (moment === "early") await new Promise((r) => setTimeout(r, 300));
      else {
        const deadline = performance.now() + 60_000;
        while (!exited && performance.now() < deadline) {
          const entries = names();
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
        child.kill(signal);
      } catch { /* already exited */ }
      const ran = await output;
      const stderr = new TextDecoder().decode(ran.stderr);
      ok(!stderr.includes("crashed"), `${signal} ${moment}: ${stderr}`);
      ok(ran.code !== 1 || ran.signal !== null, `${signal} ${moment}: exit 1 without a signal`);
      const now = tree(join(u.path, "k"));
      let outcome: string;
      if (now === null) {
        ok(
          names().includes(".k.gatelab-journal"),
          `${signal} ${moment}: --out gone without a journal`,
        );
        outcome = "between renames";
      } else if (JSON.stringify(now) === JSON.stringify(OLD)) outcome = "old";
      else if (JSON.stringify(now) === JSON.stringify(NEW)) outcome = "new";
      else {throw new Error(
          `${signal} at ${moment}: a mix of old and new: ${Object.keys(now).join(", ")}`,
        );}
      outcomes.push(`${signal}/${moment}: ${outcome}`);
      const next = await gate(u.path, older);
      equal(next.code, 0, next.stderr);
      deepEqual(tree(join(u.path, "k")), OLD);
      deepEqual(names(), ["k"], `after ${signal} at ${moment}, the next run left no temporary`);
    }
  }
  console.log(`signal outcomes: ${outcomes.join(", ")}`);
  ok(outcomes.some((o) => o.endsWith(": old")), outcomes.join(", "));
});

Deno.test({
  name:
    "fault: a single file written atomically (gate sql --out) on a full disk is an io_error, nothing left",
  ignore: ignoreWithoutMount("fault: a single file written atomically on a full disk"),
  fn: async () => {
    await using u = await tempDir();
    await using _fs = await tmpfs(join(u.path, "disk"), "64k");
    const file = join(u.path, "disk", "rows.csv");
    await Deno.writeTextFile(file, "earlier\n");
    const error = await writeFileAtomic(file, "x".repeat(200_000)).then(() => null, (e) => e);
    ok(error instanceof PathError, String(error));
    equal(error.code, "io_error");
    equal(error.message, `disk full while writing ${file}; nothing was written`);
    equal(await Deno.readTextFile(file), "earlier\n");
    deepEqual([...Deno.readDirSync(join(u.path, "disk"))].map((e) => e.name), ["rows.csv"]);
  },
});
