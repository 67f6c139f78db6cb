/**
 * The `--allow-run` list of `deno task test`: of the tools the tests may
 * run (given as one comma-separated argument), those found on PATH, printed
 * on stdout. Listing a program Deno cannot find makes every test module
 * print "Failed to resolve '<tool>' for allow-run" (hundreds of lines); a
 * missing tool is instead named here, once, with how to install it, and
 * the tests that need it are ignored (tests/ci_tools.ts; in CI they fail).
 * Python modules the notebook tests need are checked the same way when
 * python3 is there.
 *
 *     deno run --allow-read --allow-env=PATH --allow-run=python3 tests/tools_on_path.ts chromium,deno,...
 *
 * @module
 */
import { delimiter, join } from "node:path";

/** How to get each tool the tests use, said once when it is missing. */
export const TOOL_HINTS: Readonly<Record<string, string>> = {
  chromium: "the report --pdf and browser tests; e.g. apt-get install chromium",
  "rsvg-convert": "the PNG figure test; e.g. apt-get install librsvg2-bin",
  pdflatex:
    "the LaTeX compile tests; e.g. apt-get install texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-science",
  python3: "the notebook tests; install Python 3 (python.org or your package manager)",
  mkfifo: "the FIFO input test; part of coreutils",
  sh: "the installed-command test; any POSIX shell",
  mount:
    "the fault-injection tests (tmpfs, read-only bind mounts; run as root); part of util-linux",
  umount: "the fault-injection tests; part of util-linux",
  setpriv:
    "the read-only --out test as root (drops the capability to ignore modes); part of util-linux",
  time: "the memory checks of the archive tests (GNU time); e.g. apt-get install time",
  deno: "the CLI subprocess tests; npm install -g deno, or run the tasks through npx deno",
};

const PYTHON_MODULES = ["jupyter_client", "nbformat", "nbconvert", "jupyterlab"];

/** Whether an executable named `name` is in one of PATH's directories. */
export function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      const info = Deno.statSync(join(dir, name));
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch {
      // not here
    }
  }
  return false;
}

async function missingPythonModules(): Promise<string[]> {
  const script = `import importlib.util; print(" ".join(m for m in ${
    JSON.stringify(PYTHON_MODULES)
  } if importlib.util.find_spec(m) is None))`;
  try {
    const out = await new Deno.Command("python3", { args: ["-c", script], stderr: "null" })
      .output();
    return new TextDecoder().decode(out.stdout).trim().split(/\s+/).filter((m) => m !== "");
  } catch {
    return PYTHON_MODULES;
  }
}

if (import.meta.main) {
  const wanted = (Deno.args[0] ?? "").split(",").filter((t) => t !== "");
  const path = Deno.env.get("PATH");
  const found = wanted.filter((t) => onPath(t, path));
  for (const tool of wanted.filter((t) => !found.includes(t))) {
    console.error(
      `test: ${tool} is not on PATH, so the tests that need it are ignored (${
        TOOL_HINTS[tool] ?? "install it"
      })`,
    );
  }
  if (found.includes("python3")) {
    const missing = await missingPythonModules();
    if (missing.length > 0) {
      console.error(
        `test: python3 lacks ${missing.join(", ")}, so the notebook tests that need them are ` +
          `ignored (python3 -m pip install ${missing.join(" ")})`,
      );
    }
  }
  // Never empty: --allow-run= with no value would grant every program.
  console.log((found.length > 0 ? found : ["deno"]).join(","));
}
