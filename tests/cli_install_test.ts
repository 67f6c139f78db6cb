/**
 * `deno task install` as a user runs it, into a temporary DENO_INSTALL_ROOT:
 * the installed `gate`, started in a directory outside the repository with
 * relative paths, writes the same bytes as `deno task --config
 * <clone>/deno.json gate` started from an identical directory (the same
 * relative paths and the same command line, so nothing may differ: the
 * recorded command, input paths and generator.version are equal too).
 * `gate --version` works installed, and its help and usage lines say `gate
 * ...` where the task's say `deno task gate ...`; an existing `gate` that gatelab did not
 * write is refused by install and uninstall and left as it is; uninstall
 * removes gatelab's.
 *
 * Needs `deno` and `sh` on PATH (the test task has --allow-run=deno,sh).
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./fixtures.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CONFIG = join(ROOT, "deno.json");
const GATE_A = join(ROOT, "data", "demo", "ckpt-a");

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  // As a user's shell runs it: without the INIT_CWD that `deno task test` set for this process
  // (deno task keeps an INIT_CWD it inherits, so the child would resolve paths against the clone).
  const inherited = Deno.env.toObject();
  delete inherited.INIT_CWD;
  const { code, stdout, stderr } = await new Deno.Command(cmd, {
    args,
    cwd,
    clearEnv: true,
    env: { ...inherited, NO_COLOR: "1", ...env },
    stdin: "null",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) } satisfies Ran;
}

async function copyDemoGate(dir: string): Promise<void> {
  for (const name of ["gate-a", "bare-val"]) {
    await Deno.mkdir(join(dir, name));
    for (const e of Deno.readDirSync(join(GATE_A, name))) {
      await Deno.copyFile(join(GATE_A, name, e.name), join(dir, name, e.name));
    }
  }
}

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of Deno.readDirSync(dir)) out[e.name] = Deno.readTextFileSync(join(dir, e.name));
  return out;
}

Deno.test("deno task install: gate on PATH runs from any directory and writes what the task writes", async () => {
  await using root = await tempDir();
  await using user = await tempDir();
  await using viaTask = await tempDir();
  const env = { DENO_INSTALL_ROOT: root.path };
  const installed = await run(
    "deno",
    ["task", "-q", "--config", CONFIG, "install"],
    user.path,
    env,
  );
  equal(installed.code, 0, installed.stderr);
  const gate = join(root.path, "bin", "gate");
  match(installed.stdout, new RegExp(`^installed ${gate} \\(runs ${ROOT}lib/cli/main\\.ts with `));

  // The script Deno wrote, pinned to the Deno that ran the install.
  const script = await Deno.readTextFile(gate);
  match(
    script,
    new RegExp(
      `^exec '${
        Deno.execPath().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      }' run --allow-read --allow-write `,
      "m",
    ),
  );
  const version = await run("sh", [gate, "--version"], user.path, env);
  equal(version.code, 0, version.stderr);
  match(version.stdout, /^gatelab \d+\.\d+\.\d+\ncode /);

  // Installed, its help and usage lines say `gate ...`; the task's say `deno task gate ...`.
  match(script, /main\.ts' --invoked-as=gate "\$@"$/m);
  const help = await run("sh", [gate, "analyze", "--help"], user.path, env);
  equal(help.code, 0, help.stderr);
  match(help.stdout, /^usage: gate analyze <gate_dir>\.\.\. --out <dir> \[options\]\n/);
  const typo = await run("sh", [gate, "analyze", "--bootstraps", "1"], user.path, env);
  equal(typo.code, 2);
  match(typo.stderr, /; see gate analyze --help\n$/);
  const listed = await run("sh", [gate, "--help"], user.path, env);
  match(listed.stdout, /^usage: gate <command> \[args\]\n/);
  const task = await run(
    "deno",
    ["task", "-q", "--config", CONFIG, "gate", "analyze", "--help"],
    user.path,
    {},
  );
  match(task.stdout, /^usage: deno task gate analyze <gate_dir>\.\.\./);

  const args = ["analyze", "gate-a", "--out", "out", "--bootstrap", "200", "--quiet"];
  await copyDemoGate(user.path);
  await copyDemoGate(viaTask.path);
  const a = await run("sh", [gate, ...args], user.path, env);
  equal(a.code, 0, a.stderr);
  const b = await run(
    "deno",
    ["task", "-q", "--config", CONFIG, "gate", ...args],
    viaTask.path,
    {},
  );
  equal(b.code, 0, b.stderr);
  equal(a.stdout, b.stdout);
  const mine = files(join(user.path, "out"));
  deepEqual(mine, files(join(viaTask.path, "out")));
  // It read the user's directory: the inputs are recorded as given, relative.
  match(
    mine["validation.json"]!,
    /"command": "gate analyze gate-a --out out --bootstrap 200 --quiet"/,
  );
  equal(Object.keys(mine).length >= 10, true);

  const removed = await run(
    "deno",
    ["task", "-q", "--config", CONFIG, "uninstall"],
    user.path,
    env,
  );
  equal(removed.code, 0, removed.stderr);
  equal(removed.stdout, `removed ${gate}\n`);
  deepEqual([...Deno.readDirSync(join(root.path, "bin"))], []);
});

Deno.test("deno task install and uninstall leave a gate command gatelab did not write", async () => {
  await using root = await tempDir();
  await Deno.mkdir(join(root.path, "bin"));
  const theirs = join(root.path, "bin", "gate");
  await Deno.writeTextFile(theirs, "#!/bin/sh\necho theirs\n");
  const env = { DENO_INSTALL_ROOT: root.path };
  for (const task of ["install", "uninstall"]) {
    const r = await run("deno", ["task", "-q", "--config", CONFIG, task], root.path, env);
    equal(r.code, 2, task);
    match(
      r.stderr,
      new RegExp(`^usage_error  ${task}: ${theirs} (exists and )?was not installed by gatelab`),
    );
    equal(r.stderr.trim().split("\n").length, 1, `${task}: one line`);
    equal(await Deno.readTextFile(theirs), "#!/bin/sh\necho theirs\n", task);
  }
});
