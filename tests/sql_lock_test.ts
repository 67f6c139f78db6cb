/**
 * Running gatelab never modifies a tracked file: the commands that may
 * start the SQL engine run with deno.sql.lock, frozen (deno.lock plus
 * duckdb-wasm's packages, scripts/sql_lock.ts), so Deno records nothing;
 * the notebooks' kernel (and the runner's `deno check` of their cells)
 * finds notebooks/deno.json, which names the same lock and the library's
 * compiler options. Checked on the files and on a copy of the clone, where `gate sql`,
 * a library script in notebooks/ and the test runner start DuckDB and
 * `git status --porcelain` stays empty.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./gate_process.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { tempDir } from "./fixtures.ts";

type Lock = {
  specifiers: Record<string, string>;
  npm: Record<string, { integrity: string }>;
  workspace: unknown;
};
const readLock = (name: string): Lock => JSON.parse(Deno.readTextFileSync(join(ROOT, name)));

Deno.test("deno.sql.lock is deno.lock plus duckdb-wasm's packages, with the same integrity for every other", () => {
  const plain = readLock("deno.lock"), sql = readLock("deno.sql.lock");
  ok(!JSON.stringify(plain).includes("duckdb"), "deno.lock names duckdb-wasm");
  deepEqual(sql.workspace, plain.workspace);
  for (const [specifier, version] of Object.entries(plain.specifiers)) {
    equal(sql.specifiers[specifier], version, specifier);
  }
  for (const [name, entry] of Object.entries(plain.npm)) {
    equal(
      sql.npm[name]?.integrity,
      entry.integrity,
      `${name}: run scripts/sql_lock.ts`,
    );
  }
  deepEqual(
    Object.keys(sql.specifiers).filter((s) => !(s in plain.specifiers)),
    ["npm:@duckdb/duckdb-wasm@1.28.0"],
  );
  ok("@duckdb/duckdb-wasm@1.28.0" in sql.npm);
  ok("apache-arrow@13.0.0" in sql.npm, "duckdb-wasm's own apache-arrow");
});

Deno.test("the run tasks and the notebooks' config use deno.sql.lock, frozen, with lazy package caching", () => {
  const config = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
  for (const task of ["gate", "report-pdf", "test"]) {
    const line: string = config.tasks[task];
    ok(line.includes("DENO_UNSTABLE_NPM_LAZY_CACHING=1 "), task);
    ok(/ --lock=deno\.sql\.lock --frozen /.test(line), task);
  }
  const notebooks = JSON.parse(
    Deno.readTextFileSync(join(ROOT, "notebooks", "deno.json")),
  );
  deepEqual(notebooks, {
    importMap: "../deno.json",
    compilerOptions: config.compilerOptions, // notebook cells are checked as the library is
    nodeModulesDir: "none",
    lock: { path: "../deno.sql.lock", frozen: true },
  });
});

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
) {
  const o = await new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: o.code, stdout: text(o.stdout), stderr: text(o.stderr) };
}

Deno.test({
  name:
    "gate sql, a notebook-side script and deno test start DuckDB in a copy of the clone; git status stays empty",
  ignore: ignoreWithout("git", "a copy of the clone"),
  async fn() {
    await using copy = await tempDir();
    // The clone as a user has it: the files git tracks, committed in a fresh repository.
    const files = (await run("git", [
      "ls-files",
      "--cached",
      "--others",
      "--exclude-standard",
    ], ROOT))
      .stdout.split("\n").filter((f) => f !== "");
    for (const file of files) {
      const to = join(copy.path, file);
      await Deno.mkdir(join(to, ".."), { recursive: true });
      await Deno.copyFile(join(ROOT, file), to).catch(() => {}); // a file deleted in the work tree
    }
    const git = (...args: string[]) => run("git", args, copy.path);
    for (
      const args of [
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"],
      ]
    ) equal((await git(...args)).code, 0, args.join(" "));

    const gate = await run("deno", [
      "task",
      "gate",
      "sql",
      "data/demo/ckpt-a/gate-a",
      "--query",
      "select count(*) as n from attempts",
    ], copy.path);
    equal(gate.code, 0, gate.stderr);
    ok(gate.stdout.includes("806"), gate.stdout);

    // What a notebook does: the kernel runs in notebooks/ and finds notebooks/deno.json.
    await Deno.writeTextFile(
      join(copy.path, "notebooks", "probe.ts"),
      'import { openDuckDb } from "../lib/mod.ts";\n' +
        "const db = await openDuckDb();\n" +
        'console.log((await db.query("select 41 + 1 as x")).column("x")[0]);\n' +
        "await db.close();\n",
    );
    const notebook = await run(
      "deno",
      ["run", "--allow-read", "--allow-sys=cpus", "--allow-env", "probe.ts"],
      join(copy.path, "notebooks"),
    );
    equal(notebook.code, 0, notebook.stderr);
    equal(notebook.stdout.trim(), "42");
    await Deno.remove(join(copy.path, "notebooks", "probe.ts"));

    // The test runner with the test task's lock flags, on a test that starts DuckDB.
    await Deno.writeTextFile(
      join(copy.path, "tests", "probe_test.ts"),
      'import { openDuckDb } from "../lib/mod.ts";\n' +
        'Deno.test("engine", async () => { const db = await openDuckDb(); await db.query("select 1"); await db.close(); });\n',
    );
    const tested = await run(
      "deno",
      [
        "test",
        "--lock=deno.sql.lock",
        "--frozen",
        "--allow-read",
        "--allow-sys=cpus",
        "--allow-env",
        "tests/probe_test.ts",
      ],
      copy.path,
      { DENO_UNSTABLE_NPM_LAZY_CACHING: "1" },
    );
    equal(tested.code, 0, tested.stdout + tested.stderr);
    await Deno.remove(join(copy.path, "tests", "probe_test.ts"));

    equal((await git("status", "--porcelain")).stdout, "");
  },
});
