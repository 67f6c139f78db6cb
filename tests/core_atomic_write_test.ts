/**
 * The whole-directory output writer (lib/core/atomic_write.ts) and its lock
 * (lib/core/output_lock.ts): replace-whole semantics, failure reports,
 * refusals, files alongside (the ledger), chunked contents, and recovery
 * from every state a killed run can leave (built by hand here, since a real
 * kill -9 rarely lands in the microseconds between two renames; the real
 * kills are in tests/cli_outputs_test.ts).
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { OUTPUT_MARKER, recover, writeFilesAtomic } from "../lib/core/atomic_write.ts";
import { acquireLock, lockFileOf } from "../lib/core/output_lock.ts";
import { PathError } from "../lib/core/path_error.ts";

async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "gatelab-write-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Every file under `dir` (relative path to text), sorted. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix + e.name;
    if (e.isDirectory) Object.assign(out, tree(join(dir, e.name), `${rel}/`));
    else out[rel] = Deno.readTextFileSync(join(dir, e.name));
  }
  return out;
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("writeFilesAtomic: a re-run replaces the whole directory, subdirectories too", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  equal(
    await writeFilesAtomic(out, { "a.json": "1\n", "figures/f.svg": "<svg/>", "k.md": "K10" }),
    out,
  );
  await writeFilesAtomic(out, { "a.json": "2\n", "k.md": "K5" });
  deepEqual(tree(out), {
    [OUTPUT_MARKER]: `${
      JSON.stringify({ format: "gatelab.output/v1", ok: true, files: ["a.json", "k.md"] }, null, 2)
    }\n`,
    "a.json": "2\n",
    "k.md": "K5",
  });
  deepEqual(names(t.path), ["out"]); // no lock, journal or temporary left
});

Deno.test("writeFilesAtomic: text in chunks (sync and async iterables) and bytes", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  const many = Array.from({ length: 5000 }, (_, i) => `{"i":${i}}\n`);
  async function* slowly(): AsyncIterable<string> {
    for (const piece of ["[", "1,", "2", "]\n"]) {
      await new Promise((r) => setTimeout(r, 1));
      yield piece;
    }
  }
  function* generated(): Iterable<string> {
    yield "é";
    yield "\u{1F600}\n"; // non-ASCII across chunk boundaries is encoded whole
  }
  await writeFilesAtomic(out, {
    "many.jsonl": many,
    "async.json": slowly(),
    "gen.txt": generated(),
    "bytes.bin": new Uint8Array([0, 255, 10]),
  });
  equal(await Deno.readTextFile(join(out, "many.jsonl")), many.join(""));
  equal(await Deno.readTextFile(join(out, "async.json")), "[1,2]\n");
  equal(await Deno.readTextFile(join(out, "gen.txt")), "é\u{1F600}\n");
  deepEqual([...await Deno.readFile(join(out, "bytes.bin"))], [0, 255, 10]);
});

Deno.test("writeFilesAtomic: text in pieces is the UTF-8 of the whole text, however it is cut", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  // Cuts anywhere, inside surrogate pairs too; lone surrogates become U+FFFD
  // as TextEncoder writes them; a 1.2 MB text crosses the 1 MiB write buffer.
  const long = "\u{1F600}é".repeat(200_000);
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }).map((s) => long + s)),
      fc.uniqueArray(fc.nat(), { maxLength: 6 }),
      async (text, at) => {
        const cuts = [...at.map((c) => c % (text.length + 1)), 0, text.length].sort((a, b) =>
          a - b
        );
        const pieces = cuts.slice(1).map((c, i) => text.slice(cuts[i], c));
        await writeFilesAtomic(out, { "t.txt": pieces });
        deepEqual(await Deno.readFile(join(out, "t.txt")), new TextEncoder().encode(text));
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("writeFilesAtomic: a stream that fails half-way leaves the earlier directory whole", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  await writeFilesAtomic(out, { "a.json": "old\n" });
  const before = tree(out);
  async function* broken(): AsyncIterable<string> {
    yield "{";
    throw new Error("generator failed");
  }
  await rejects(
    writeFilesAtomic(out, { "a.json": "new\n", "b.json": broken() }),
    /generator failed/,
  );
  deepEqual(tree(out), before);
  deepEqual(names(t.path), ["out"]);
});

Deno.test("writeFilesAtomic: check runs under the lock; a refusal changes nothing", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  await writeFilesAtomic(out, { "a.json": "old\n" });
  let seen: string | null = null;
  await rejects(
    writeFilesAtomic(out, { "a.json": "new\n" }, {
      check: async (dir) => {
        seen = await Deno.readTextFile(join(dir, "a.json"));
        ok(await exists(lockFileOf(out)), "the lock is held during the check");
        throw new Error("refused");
      },
    }),
    /refused/,
  );
  equal(seen, "old\n");
  equal(await Deno.readTextFile(join(out, "a.json")), "old\n");
  deepEqual(names(t.path), ["out"]);
});

Deno.test("writeFilesAtomic: a failure report never replaces an earlier successful result", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out");
  // Nothing there yet: the failure report is the directory.
  equal(await writeFilesAtomic(out, { "validation.json": "bad1\n" }, { failure: true }), out);
  equal(JSON.parse(await Deno.readTextFile(join(out, OUTPUT_MARKER))).ok, false);
  // A failure replaces an earlier failure.
  equal(await writeFilesAtomic(out, { "validation.json": "bad2\n" }, { failure: true }), out);
  deepEqual(names(out), [OUTPUT_MARKER, "validation.json"]);
  // A success replaces a failure.
  await writeFilesAtomic(out, { "validation.json": "ok\n", "result.json": "r\n" });
  // A later failure goes beside it, to <out>.failed.
  equal(
    await writeFilesAtomic(`${out}/`, { "validation.json": "bad3\n" }, { failure: true }),
    `${out}.failed`,
  );
  equal(await Deno.readTextFile(join(out, "result.json")), "r\n");
  equal(await Deno.readTextFile(join(out, "validation.json")), "ok\n");
  equal(await Deno.readTextFile(join(`${out}.failed`, "validation.json")), "bad3\n");
  // The next success removes the stale failure report.
  await writeFilesAtomic(out, { "result.json": "r2\n" });
  deepEqual(names(t.path), ["out"]);
});

Deno.test("writeFilesAtomic: refuses paths it must not replace, with one-line PathErrors", async () => {
  await using t = await tempDir();
  const file = join(t.path, "README.md");
  await Deno.writeTextFile(file, "mine");
  await rejects(writeFilesAtomic(file, { "a": "x" }), PathError, "is a file; expected a directory");
  const foreign = join(t.path, "papers");
  await Deno.mkdir(foreign);
  await Deno.writeTextFile(join(foreign, "draft.tex"), "mine");
  await rejects(writeFilesAtomic(foreign, { "a": "x" }), /holds files gatelab did not write/);
  equal(await Deno.readTextFile(join(foreign, "draft.tex")), "mine");
  const link = join(t.path, "link");
  await Deno.symlink(foreign, link);
  await rejects(writeFilesAtomic(link, { "a": "x" }), /is a symbolic link/);
  await rejects(writeFilesAtomic(Deno.cwd(), { "a": "x" }), /current directory/);
  await rejects(writeFilesAtomic(join(file, "sub"), { "a": "x" }), PathError);
  await rejects(
    writeFilesAtomic(join(t.path, "o"), { "a": "x" }, { alongside: { [t.path]: "x" } }),
    /is a directory; expected a file/,
  );
  await rejects(writeFilesAtomic(join(t.path, "o"), { "../escape": "x" }), RangeError);
  deepEqual(names(t.path), ["README.md", "link", "papers"]);
  // An empty directory, and a directory from a gatelab without the marker, may be replaced.
  const legacy = join(t.path, "legacy");
  await Deno.mkdir(legacy);
  await Deno.writeTextFile(join(legacy, "power.json"), '{"generator": {"tool": "gatelab"}}');
  await writeFilesAtomic(legacy, { "a": "x" });
  deepEqual(names(legacy), [OUTPUT_MARKER, "a"]);
});

Deno.test("writeFilesAtomic: a file alongside (the ledger) is merged under the lock and replaced", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out"), ledger = join(t.path, "ledger.jsonl");
  const append = (line: string) => (previous: string | null) => (previous ?? "") + line;
  await writeFilesAtomic(out, { "a": "1" }, { alongside: { [ledger]: append("one\n") } });
  await writeFilesAtomic(out, { "a": "2" }, { alongside: { [ledger]: append("two\n") } });
  equal(await Deno.readTextFile(ledger), "one\ntwo\n");
  // Inside the directory, a file value gets the current file as `previous`.
  await writeFilesAtomic(out, { "ledger.jsonl": append("x\n") });
  await writeFilesAtomic(out, { "ledger.jsonl": append("y\n") });
  equal(await Deno.readTextFile(join(out, "ledger.jsonl")), "x\ny\n");
  deepEqual(names(t.path), ["ledger.jsonl", "out"]);
});

Deno.test("writeFilesAtomic: concurrent writers to one directory are serialised by the lock", async () => {
  await using t = await tempDir();
  const out = join(t.path, "out"), ledger = join(t.path, "ledger.jsonl");
  const writers = Array.from({ length: 8 }, (_, i) =>
    writeFilesAtomic(out, { "n.txt": `${i}\n` }, {
      alongside: { [ledger]: (previous) => `${previous ?? ""}${i}\n` },
    }));
  await Promise.all(writers);
  // Every writer's ledger line survived: each merge saw the one before it.
  deepEqual((await Deno.readTextFile(ledger)).trim().split("\n").sort(), [
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
  ]);
  deepEqual(names(out), [OUTPUT_MARKER, "n.txt"]);
  deepEqual(names(t.path), ["ledger.jsonl", "out"]);
});

/**
 * The states a kill can leave, as the writer makes them: the journal
 * `.<name>.gatelab-journal` ({phase, dest, staged, old, alongside}), the new
 * directory `.<name>.gatelab-new-<pid>-<8 hex>`, the moved-away earlier one
 * `.<name>.gatelab-old-<pid>-<8 hex>`, and a file's `.<file>.gatelab-new-<id>`.
 */
async function killedState(
  parent: string,
  at: "staging" | "moved-away" | "committed" | "no-journal",
): Promise<{ out: string; ledger: string }> {
  const out = join(parent, "out"), ledger = join(parent, "ledger.jsonl");
  await writeFilesAtomic(out, { "a.json": "old\n", "k10.md": "old\n" }, {
    alongside: { [ledger]: "old\n" },
  });
  const id = "4242-0badcafe";
  const staged = join(parent, `.out.gatelab-new-${id}`);
  const old = join(parent, `.out.gatelab-old-${id}`);
  const temp = join(parent, `.ledger.jsonl.gatelab-new-${id}`);
  const journal = (phase: string) =>
    Deno.writeTextFile(
      join(parent, ".out.gatelab-journal"),
      JSON.stringify({ phase, dest: out, staged, old, alongside: [{ temp, target: ledger }] }),
    );
  await Deno.mkdir(staged);
  await Deno.writeTextFile(join(staged, "a.json"), "new\n");
  await Deno.writeTextFile(temp, "new\n");
  if (at === "staging") {
    await journal("staging"); // killed while writing: no marker yet
    return { out, ledger };
  }
  await Deno.writeTextFile(join(staged, OUTPUT_MARKER), "{}\n");
  await journal("commit");
  await Deno.rename(out, old);
  if (at === "moved-away") return { out, ledger };
  await Deno.rename(staged, out);
  if (at === "committed") return { out, ledger };
  // Killed after the journal was removed, before the earlier directory was.
  await Deno.rename(temp, ledger);
  await Deno.remove(join(parent, ".out.gatelab-journal"));
  return { out, ledger };
}

Deno.test("recover: every state a killed run can leave ends as the old or the new result, no temporaries", async () => {
  for (
    const [at, expected] of [
      ["staging", "old"],
      ["moved-away", "old"],
      ["committed", "new"],
      ["no-journal", "new"],
    ] as const
  ) {
    await using t = await tempDir();
    const { out, ledger } = await killedState(t.path, at);
    await recover(out);
    equal(await Deno.readTextFile(join(out, "a.json")), `${expected}\n`, at);
    equal(await exists(join(out, "k10.md")), expected === "old", `${at}: never a mix`);
    equal(await Deno.readTextFile(ledger), `${expected}\n`, `${at}: the ledger follows`);
    deepEqual(names(t.path), ["ledger.jsonl", "out"], at);
  }
});

Deno.test("writeFilesAtomic: the next write recovers a killed run first", async () => {
  await using t = await tempDir();
  const { out, ledger } = await killedState(t.path, "moved-away");
  ok(!(await exists(out)));
  await writeFilesAtomic(out, { "b.json": "next\n" }, {
    alongside: { [ledger]: (previous) => `${previous}next\n` },
  });
  deepEqual(names(out), [OUTPUT_MARKER, "b.json"]);
  equal(await Deno.readTextFile(ledger), "old\nnext\n"); // built on the recovered ledger
  deepEqual(names(t.path), ["ledger.jsonl", "out"]);
});

Deno.test("acquireLock: a lock left by a killed process is recognised as stale and taken", async () => {
  await using t = await tempDir();
  const target = join(t.path, "out");
  const script = join(t.path, "hold.ts");
  await Deno.writeTextFile(
    script,
    `import { acquireLock } from ${
      JSON.stringify(new URL("../lib/core/output_lock.ts", import.meta.url).href)
    };
await acquireLock(${JSON.stringify(target)});
console.log("held");
setInterval(() => {}, 1000);
`,
  );
  const child = new Deno.Command("deno", {
    args: ["run", `--allow-read=${t.path}`, `--allow-write=${t.path}`, script],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  equal((await reader.read()).value?.trim(), "held");
  const held = JSON.parse(await Deno.readTextFile(lockFileOf(target)));
  equal(held.pid, child.pid);
  // While the holder lives, the lock is not taken.
  let waitedFor: number | null = null;
  const pending = acquireLock(target, { onWait: (pid) => (waitedFor = pid) });
  await new Promise((r) => setTimeout(r, 300));
  equal(waitedFor, child.pid);
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  // The holder is gone (kill -9: its lock file stays, its OS lock does not).
  const lock = await pending;
  equal(JSON.parse(await Deno.readTextFile(lockFileOf(target))).pid, Deno.pid);
  await lock.release();
  ok(!(await exists(lockFileOf(target))));
});

Deno.test("writeFileAtomic: a bare file name is written under its full name (not cut)", async () => {
  await using t = await tempDir();
  // In a child started in the directory: the test process's working directory is shared by
  // every file of a --parallel run, so it never changes.
  const { code } = await new Deno.Command("deno", {
    args: [
      "eval",
      `import { writeFileAtomic } from ${
        JSON.stringify(new URL("../lib/core/atomic_write.ts", import.meta.url).href)
      };
await writeFileAtomic("ledger.jsonl", "a\\n");
await writeFileAtomic("./x.csv", ["b", "\\n"]);`,
    ],
    cwd: t.path,
    stderr: "inherit",
  }).output();
  equal(code, 0);
  deepEqual(names(t.path), ["ledger.jsonl", "x.csv"]);
  equal(await Deno.readTextFile(join(t.path, "x.csv")), "b\n");
});
