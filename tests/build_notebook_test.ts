/**
 * Notebooks from a user's own study folder, as a user runs them: `gate
 * notebook new` writes a notebook there that imports this gatelab by its
 * absolute location; a study's `notebook:` steps (that notebook by its
 * file, a project notebook by name) write the executed notebook, its HTML
 * and its figures under `<out>/<id>/` and nothing into the clone's
 * reports/; and `deno task --config <clone>/deno.json notebooks` runs a
 * notebook in that folder that loads the study's outputs by step id
 * (`PROJECT`, `STEPS`). Through the real CLI; the build grants `python3`
 * as docs/build.md says a notebook step needs. The one gate is the demo's
 * Gate A (400 tasks, 14 versions: 98 coefficients over 7 metrics).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { filesOf, gate, ROOT } from "./build_study.ts";
import { gateTask } from "./gate_process.ts";
import { ignoreWithout } from "./ci_tools.ts";

const GATE = join(ROOT, "data", "demo", "ckpt-a", "gate-a");

/** The source of a notebook's cells, joined. */
function sources(path: string): string[] {
  const nb = JSON.parse(Deno.readTextFileSync(path));
  return nb.cells.map((c: { source: string | string[] }) =>
    Array.isArray(c.source) ? c.source.join("") : c.source
  );
}

/** The text outputs of an executed notebook, joined. */
function outputText(path: string): string {
  const nb = JSON.parse(Deno.readTextFileSync(path));
  return nb.cells.flatMap((
    c: { outputs?: { text?: string[]; data?: Record<string, string[]> }[] },
  ) => (c.outputs ?? []).map((o) => (o.text ?? o.data?.["text/plain"] ?? []).join(""))).join("\n");
}

/** This process's environment without `INIT_CWD`. */
function withoutInitCwd(): Record<string, string> {
  const env = Deno.env.toObject();
  delete env["INIT_CWD"];
  return env;
}

/** Files under `dir` changed since `since` (ms). */
function changedSince(dir: string, since: number): string[] {
  try {
    return [...filesOf(dir).keys()].filter((f) =>
      Deno.statSync(join(dir, f)).mtime!.getTime() >= since
    );
  } catch {
    return [];
  }
}

Deno.test({
  name:
    "notebooks in a study folder: gate notebook new, notebook steps into <out>/<id>/, PROJECT by step id",
  ignore: ignoreWithout("python3", "build_notebook_test"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-build-notebook-" });
    const started = Date.now();
    try {
      // gate notebook new: the library by its absolute URL, the demo's paths absolute, figures beside it.
      const made = await gate(dir, ["notebook", "new", "mine"]);
      equal(made.code, 0, made.stderr);
      match(
        made.stdout,
        /^ok: wrote mine\.ipynb \(from 01_gate_reanalysis\.ipynb\); run it here with\n {2}deno task --config \S+deno\.json notebooks mine\.ipynb\n/,
      );
      const cells = sources(join(dir, "mine.ipynb"));
      ok(
        cells.includes(`import * as gl from "${pathToFileURL(join(ROOT, "lib", "mod.ts")).href}";`),
      );
      match(cells[1]!, new RegExp(`let GATES: string\\[\\] = \\["${GATE}"\\];`));
      match(cells[1]!, /let OUT_DIR = "mine_figures";/);
      match(cells[1]!, /let CACHE_DIR = "\.gatelab-cache";/);
      const before = Deno.readFileSync(join(dir, "mine.ipynb"));
      const again = await gate(dir, ["notebook", "new", "mine.ipynb", "--from", "05"]);
      equal(again.code, 2);
      equal(
        again.stderr,
        "usage_error  mine.ipynb exists; gatelab never replaces a file: choose another name, or " +
          "move that one away; see deno task gate notebook --help\n",
      );
      deepEqual(Deno.readFileSync(join(dir, "mine.ipynb")), before);

      await Deno.writeTextFile(
        join(dir, "gatelab.yaml"),
        `study: s
steps:
  - analyze: ${GATE}
    id: gate-a
  - notebook: mine.ipynb
    id: mine
    p: {DRAWS: 50}
  - notebook: "05"
    id: sql
    p: {SOURCES: [gate-a]}
`,
      );
      const task = gateTask();
      const build = async () => {
        const { code, stdout, stderr } = await new Deno.Command("deno", {
          args: task.args.map((a) =>
            a === "--allow-run=rsvg-convert" ? "--allow-run=rsvg-convert,python3" : a
          )
            .concat("build"),
          cwd: ROOT,
          env: { ...task.env, INIT_CWD: dir, NO_COLOR: "1", GATELAB_NO_PROGRESS: "1" },
          stdin: "null",
        }).output();
        const text = (b: Uint8Array) => new TextDecoder().decode(b);
        return { code, stdout: text(stdout), stderr: text(stderr) };
      };
      const built = await build();
      equal(built.code, 0, built.stderr);
      match(
        built.stdout,
        /^ok: 3 steps, with the study's tables, report and paper in out: 3 built, 0 up to date/,
      );
      const mine = [...filesOf(join(dir, "out", "mine")).keys()];
      for (const f of ["mine.ipynb", "mine.html", "figures/forest.svg"]) ok(mine.includes(f), f);
      // The figures' folder is the step's output, not the clone's reports/.
      deepEqual(changedSince(join(ROOT, "reports", "notebooks"), started), []);
      match(outputText(join(dir, "out", "sql", "05_raw_traces_sql.ipynb")), /coefficients: 98,/);
      const rebuilt = await build();
      equal(rebuilt.code, 0, rebuilt.stderr);
      match(
        rebuilt.stdout,
        /^up to date: 3 steps, with the study's tables, report and paper in out; nothing to build/,
      );

      // From the folder, a notebook of the user's loads a built step's outputs by id.
      equal((await gate(dir, ["notebook", "new", "tables", "--from", "05", "--quiet"])).code, 0);
      match(
        sources(join(dir, "tables.ipynb"))[1]!,
        /let PROJECT = "gatelab\.yaml" as string \| null;/,
      );
      const ran = await new Deno.Command("deno", {
        args: [
          "task",
          "--config",
          join(ROOT, "deno.json"),
          "notebooks",
          "tables.ipynb",
          "-p",
          "STEPS",
          '["gate-a"]',
          "--out",
          "runs",
        ],
        cwd: dir,
        // A user's shell: no INIT_CWD (deno task sets it only when unset, and this test runs under one).
        clearEnv: true,
        env: { ...withoutInitCwd(), NO_COLOR: "1" },
        stdin: "null",
      }).output();
      const err = new TextDecoder().decode(ran.stderr) + new TextDecoder().decode(ran.stdout);
      equal(ran.code, 0, err);
      match(outputText(join(dir, "runs", "tables.ipynb")), /outputs: 1,\n {2}coefficients: 98,/);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await new Deno.Command("git", { args: ["checkout", "-q", "deno.lock"], cwd: ROOT }).output();
    }
  },
});
