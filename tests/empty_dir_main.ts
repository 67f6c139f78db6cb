/**
 * `main()` run in an empty working directory, for tests that check a
 * command writes nothing where relative paths point. The test process's
 * working directory is shared by every test file of a `--parallel` run, so
 * it is never changed: a child Deno (this file, run as a script) takes the
 * command lines one per line on stdin, runs each in-process in a fresh
 * empty temporary directory with the console captured, and answers one JSON
 * line each. One child per test: the session is disposed at its end.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { main } from "../lib/cli/main.ts";
import { gateTask } from "./gate_process.ts";

/** What one command line did: exit code, printed lines, and the names it left in the directory. */
export interface EmptyDirRun {
  readonly code: number;
  readonly log: string;
  readonly err: string;
  readonly written: readonly string[];
}

/** A child that runs command lines; `await using` it. */
export interface EmptyDirSession extends AsyncDisposable {
  /** Runs `main(args, context)` in a fresh empty directory of the child. */
  run(args: readonly string[], context?: { readonly program?: string }): Promise<EmptyDirRun>;
}

/** Starts the child (read, write, env and cpus, as the test task grants them). */
export function emptyDirSession(): EmptyDirSession {
  const { env, args: task } = gateTask();
  const child = new Deno.Command("deno", {
    env,
    args: [
      "run",
      ...task.filter((a) => a.startsWith("--lock") || a === "--frozen"),
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys=cpus",
      fileURLToPath(import.meta.url),
    ],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines())
    .getReader();
  return {
    async run(args, context = {}) {
      await writer.write(new TextEncoder().encode(`${JSON.stringify({ args, context })}\n`));
      const { value, done } = await lines.read();
      if (done) throw new Error(`the main() child ended before answering ${args.join(" ")}`);
      const answer = JSON.parse(value);
      if ("crash" in answer) throw new Error(`main(${args.join(" ")}) threw: ${answer.crash}`);
      return answer;
    },
    async [Symbol.asyncDispose]() {
      await writer.close();
      await lines.cancel();
      await child.status;
    },
  };
}

function splitLines(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, controller) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const line of parts) controller.enqueue(line);
    },
  });
}

/** The child: one command line per stdin line, one JSON answer per stdout line. */
async function serve(): Promise<void> {
  const encoder = new TextEncoder();
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines());
  for await (const line of lines) {
    const { args, context }: { args: string[]; context: { program?: string } } = JSON.parse(line);
    const dir = await Deno.makeTempDir({ prefix: "gatelab-empty-cwd-" });
    const cwd = Deno.cwd();
    const { log, error } = console;
    const logs: string[] = [], errs: string[] = [];
    console.log = (...a: unknown[]) => logs.push(a.join(" "));
    console.error = (...a: unknown[]) => errs.push(a.join(" "));
    Deno.chdir(dir);
    let answer: EmptyDirRun | { crash: string };
    try {
      const code = await main(args, context);
      const written = [...Deno.readDirSync(dir)].map((e) => e.name);
      answer = { code, log: logs.join("\n"), err: errs.join("\n"), written };
    } catch (e) {
      answer = { crash: e instanceof Error ? e.stack ?? e.message : String(e) };
    } finally {
      console.log = log;
      console.error = error;
      Deno.chdir(cwd);
    }
    await Deno.remove(dir, { recursive: true });
    const bytes = encoder.encode(`${JSON.stringify(answer)}\n`);
    for (let sent = 0; sent < bytes.length;) sent += await Deno.stdout.write(bytes.subarray(sent));
  }
}

if (import.meta.main) await serve();
