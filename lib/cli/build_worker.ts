/**
 * One unit of `gate build`, in a Deno Worker of its own (the build's
 * permissions, inherited): a `gate` command line run exactly as `gate`
 * runs it (lib/cli/main.ts), a notebook through `deno task notebooks`'
 * runner, or a study-wide output. Everything the unit prints (console and
 * progress lines) is kept and posted back with its exit code, so parallel
 * units never mix their lines; module state and signal handlers stay in
 * the worker, which the build ends after the unit.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { printError, printLine } from "../core/terminal_text.ts";
import { join, relative } from "node:path";
import { writeFilesAtomic } from "../core/atomic_write.ts";
import { formatIssue, GatelabError } from "../core/issue.ts";
import { PathError } from "../core/path_error.ts";
import type { StudyAssembly } from "../build/assembly_seam.ts";
import type { BuildJob, BuildJobResult } from "./build_job.ts";
import { declaredParameters, NOTEBOOKS_DIR, projectNotebook } from "./notebook_file.ts";

/**
 * Runs a unit and returns its exit code. The study-wide outputs come from
 * `assembly` (lib/build/assembly_seam.ts's loader).
 */
export async function runJob(
  job: BuildJob,
  assembly: () => Promise<StudyAssembly>,
): Promise<number> {
  if (job.kind === "command") {
    const { main } = await import("./main.ts");
    return await main([...job.argv]);
  }
  if (job.kind === "notebook") return await runNotebook(job.argv, job.out);
  const study = await assembly();
  if (job.kind === "report") {
    const { main } = await import("./main.ts");
    return await main(["report", ...study.studyReportArgs(job.layout)]);
  }
  const files = job.kind === "tables"
    ? await study.studyTableFiles(job.layout)
    : await study.studyPaperFiles(job.layout);
  try {
    await writeFilesAtomic(job.dir, files);
  } catch (error) {
    if (error instanceof PathError) {
      printError(`${error.code}  ${error.message}`);
      return 2;
    }
    if (error instanceof GatelabError) {
      for (const issue of error.issues) printError(formatIssue(issue));
      return 2;
    }
    throw error;
  }
  printLine(`ok: wrote ${job.dir}/ (${Object.keys(files).length} files)`);
  return 0;
}

/**
 * `deno task notebooks --notebook NAME -p ...` into a temporary directory,
 * whose files then replace `out` whole through the output swap.
 */
async function runNotebook(argv: readonly string[], out: string): Promise<number> {
  const { run } = await import("./notebooks.ts");
  const stage = await Deno.makeTempDir({ prefix: "gatelab-notebook-" });
  try {
    const figures = figuresInto(argv, join(stage, "figures"));
    const code = await run([...argv, ...figures, "--out", stage], { quiet: true });
    if (code !== 0) {
      printError(`the notebook runner exited ${code}`);
      return code === 1 ? 2 : code;
    }
    const files: Record<string, Uint8Array> = {};
    const walk = async (dir: string): Promise<void> => {
      for await (const entry of Deno.readDir(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) await walk(path);
        else if (entry.isFile) files[relative(stage, path)] = await Deno.readFile(path);
      }
    };
    await walk(stage);
    await writeFilesAtomic(out, files);
    printLine(`ok: wrote ${out}/ (${Object.keys(files).length} files)`);
    return 0;
  } finally {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

/**
 * `-p OUT_DIR <dir>` when the step's notebook declares `OUT_DIR` (its
 * figures) and the step sets none, so the figures land in the step's
 * output with the executed notebook, not in the project's reports/.
 */
function figuresInto(argv: readonly string[], dir: string): string[] {
  if (argv.some((a, i) => a === "-p" && argv[i + 1] === "OUT_DIR")) return [];
  let file = argv[0]!;
  if (file === "--notebook") {
    const named = projectNotebook(argv[1]!);
    if (named === null) return []; // the runner names the mistake
    file = join(NOTEBOOKS_DIR, named);
  }
  const declared = declaredParameters(JSON.parse(Deno.readTextFileSync(file)));
  return declared.includes("OUT_DIR") ? ["-p", "OUT_DIR", JSON.stringify(dir)] : [];
}

/** Keeps every line the unit prints instead of writing it to the terminal. */
function captureOutput(lines: string[]): void {
  const keep = (...parts: unknown[]) => {
    const text = parts.map((p) => typeof p === "string" ? p : Deno.inspect(p)).join(" ");
    lines.push(...text.split("\n"));
  };
  console.log =
    console.error =
    console.warn =
    console.info =
    console.debug =
      keep;
  let partial = "";
  const stream = {
    writeSync(bytes: Uint8Array): number {
      const text = partial + new TextDecoder().decode(bytes).replaceAll("\r", "\n");
      const parts = text.split("\n");
      partial = parts.pop()!;
      lines.push(...parts.filter((p) => p !== ""));
      return bytes.length;
    },
    write(bytes: Uint8Array): Promise<number> {
      return Promise.resolve(this.writeSync(bytes));
    },
    isTerminal: () => false,
  };
  Object.defineProperty(Deno, "stdout", { value: stream, configurable: true });
  Object.defineProperty(Deno, "stderr", { value: stream, configurable: true });
}

if (import.meta.main) {
  self.onmessage = async (event: MessageEvent<BuildJob>) => {
    const lines: string[] = [];
    captureOutput(lines);
    let code: number;
    try {
      const { STUDY_ASSEMBLY } = await import("../build/assembly_seam.ts");
      code = await runJob(event.data, STUDY_ASSEMBLY);
    } catch (error) {
      lines.push(`crashed: ${error instanceof Error ? error.stack : error}`);
      code = 1;
    }
    const result: BuildJobResult = { code, lines };
    self.postMessage(result);
  };
}
