#!/usr/bin/env python3
"""Execute gatelab's notebooks headlessly with the Deno Jupyter kernel.

Usage (`deno task notebooks` runs this through lib/cli/notebooks.ts, which
writes the project kernelspec and passes --deno, --jupyter-path and --cwd):

    python3 scripts/run_notebooks.py [notebook.ipynb ...] [--notebook NAME]...
                                     [-p NAME VALUE]... [-r NAME VALUE]... [--out reports/notebooks]
                                     [--timeout 600] [--settle 2] [--deno PATH]
                                     [--jupyter-path DIR] [--cwd DIR]
    python3 scripts/run_notebooks.py --self-test   # the runner on the two traps

Every notebook (default: notebooks/*.ipynb, sorted) is executed top to
bottom in a fresh kernel started in the notebook's directory, and written as
an executed `.ipynb` and an offline `.html` (both 0644) into --out. On any
error the run fails, naming the notebook, the cell and the line, and exits
after the other notebooks ran: 2 when every error is a GatelabError (the
notebook stopped on issues in its inputs), else 1.

Parameters, the papermill way: each notebook has one code cell tagged
`parameters` that declares every input with `let NAME = value;`. Each
`-p NAME VALUE` follows papermill's rule (JSON when VALUE parses as JSON,
papermill's True/False/None, else the string itself; `-r NAME VALUE` is
always the string) and is set in a new code cell tagged
`injected-parameters` inserted right after it (`NAME = value;`), so the
executed notebook shows what it ran with; the values are also recorded in
the notebook metadata (`metadata.gatelab.parameters`). A value of the wrong
type is reported by the type check below, with its cell and line
(`deno task notebooks` also takes papermill's `-y YAML` and `-f FILE.yaml`
and hands them over as `-p` values). Parameters listed in
the parameters cell's `metadata.gatelab.paths` are paths: their relative
strings (or the strings of an array) are resolved against --cwd, the
caller's working directory. Unknown notebooks and unknown parameters
exit 2 before anything runs, one line each
(`usage_error  <where>  <message>`).

It handles the two traps of stock `nbconvert --execute` with the Deno
kernel (docs/notebooks.md):

1. Late outputs. The kernel sometimes publishes a cell's output shortly
   after reporting the cell idle. Every IOPub message is filed into the cell
   whose request it answers (by parent msg_id), also after that cell
   finished, and after the last cell the runner keeps listening until the
   kernel has been quiet for --settle seconds.
2. Silent syntax errors. A syntax error yields only "Execution failed",
   with no line. Before executing, the code cells are exported as one
   TypeScript module next to the notebook and checked with `deno check`;
   a reported position is mapped back to its cell and line.

The kernelspec is project-local (.jupyter/kernels/gatelab-deno, found
through JUPYTER_PATH; its env sets NO_COLOR=1). Needs jupyter_client,
nbformat and nbconvert:
`python3 -m pip install jupyter_client nbformat nbconvert nbclient ipykernel`.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JUPYTER_DIR = ROOT / "scripts" / "jupyter"
KERNEL_NAME = "gatelab-deno"
PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"
DECLARATION = re.compile(r"^[ \t]*let[ \t]+([A-Za-z_$][\w$]*)\b", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass
class Failure:
    notebook: str
    cell: int  # 1-based index among all cells
    line: int | None  # 1-based line within the cell
    message: str

    def render(self) -> str:
        where = f"{self.notebook}: cell {self.cell}"
        if self.line is not None:
            where += f", line {self.line}"
        return f"{where}: {self.message}"


@dataclass
class CellRun:
    index: int  # index into nb.cells
    outputs: list = field(default_factory=list)
    execution_count: int | None = None
    done: bool = False
    error: dict | None = None


def deno_command(explicit: str | None) -> list[str]:
    """The command that runs Deno: --deno, else `deno` on PATH, else npx."""
    if explicit:
        return [explicit]
    found = shutil.which("deno")
    if found:
        return [found]
    if shutil.which("npx"):
        return ["npx", "-y", "deno@2.9.6"]
    sys.exit("run_notebooks: cannot find deno: not on PATH and npx is missing (give --deno PATH)")


def jupyter_path_for(deno: list[str], workdir: Path) -> str:
    """A JUPYTER_PATH entry whose gatelab-deno kernelspec starts `deno`.

    `deno task notebooks` passes --jupyter-path (the project kernelspec that
    lib/cli/kernelspec.ts writes under .jupyter/); run directly, the runner
    writes the same spec with the resolved Deno command into `workdir`.
    """
    spec = {
        "argv": deno + ["jupyter", "--kernel", "--quiet", "--conn", "{connection_file}"],
        "display_name": "Deno (gatelab)",
        "language": "typescript",
        "env": {"NO_COLOR": "1"},
    }
    target = workdir / "jupyter" / "kernels" / KERNEL_NAME
    target.mkdir(parents=True, exist_ok=True)
    (target / "kernel.json").write_text(json.dumps(spec, indent=2))
    return str(workdir / "jupyter")


class UsageError(Exception):
    """A bad command line; rendered as `usage_error  <where>  <message>`, exit 2."""

    def __init__(self, where: str, message: str):
        super().__init__(f"usage_error  {where}  {message}")


def parameters_cell(nb) -> int | None:
    """Index of the code cell tagged `parameters`, or None."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and PARAMETERS_TAG in cell.get("metadata", {}).get("tags", []):
            return i
    return None


def declared_parameters(source: str) -> list[str]:
    """Names declared with `let` at the start of a line of the parameters cell."""
    return DECLARATION.findall(source)


PAPERMILL_WORDS = {"True": True, "False": False, "None": None}


def parameter_value(text: str):
    """papermill's rule for `-p NAME VALUE`: the value it parses as, else the string.

    JSON first (numbers, true/false/null, arrays, objects, quoted strings),
    then papermill's Python spellings True, False and None; anything else,
    e.g. `r_success`, is that string.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return PAPERMILL_WORDS.get(text, text)


def parse_parameter_values(pairs: list[list[str]], raw: list[list[str]] | None = None) -> tuple[dict, list[UsageError]]:
    """`-p NAME VALUE` pairs by papermill's rule, then `-r NAME VALUE` pairs as strings; the last wins."""
    values: dict = {}
    for name, text in pairs:
        values[name] = parameter_value(text)
    for name, text in raw or []:
        values[name] = text
    return values, []


def resolve_paths(value, cwd: Path):
    """Relative path strings (alone or in a list) made absolute against `cwd`."""
    if isinstance(value, str):
        return str((cwd / value).resolve()) if value and not os.path.isabs(value) else value
    if isinstance(value, list):
        return [resolve_paths(v, cwd) for v in value]
    return value


def inject_parameters(nb, path: Path, values: dict, cwd: Path) -> None:
    """Inserts the `injected-parameters` cell after the `parameters` cell.

    Raises UsageError when the notebook has no parameters cell or a name is
    not declared there.
    """
    from nbformat.v4 import new_code_cell

    index = parameters_cell(nb)
    if index is None:
        raise UsageError(path.name, "no code cell is tagged `parameters`; cannot set -p values")
    cell = nb.cells[index]
    declared = declared_parameters(cell.source)
    unknown = [n for n in values if n not in declared]
    if unknown:
        raise UsageError(
            f"{path.name} {', '.join(unknown)}",
            f"not a parameter of this notebook (declared: {', '.join(declared)})",
        )
    paths = set(cell.get("metadata", {}).get("gatelab", {}).get("paths", []))
    resolved = {n: resolve_paths(v, cwd) if n in paths else v for n, v in values.items()}
    lines = ["// Injected parameters (deno task notebooks -p)"]
    lines += [f"{name} = {json.dumps(value, ensure_ascii=False)};" for name, value in resolved.items()]
    injected = new_code_cell("\n".join(lines), metadata={"tags": [INJECTED_TAG]})
    nb.cells.insert(index + 1, injected)
    nb.metadata.setdefault("gatelab", {})["parameters"] = resolved


def select_notebooks(names: list[str], positional: list[Path], cwd: Path) -> tuple[list[Path], list[UsageError]]:
    """The notebooks to run: --notebook names (stem, file name or unique prefix), then paths.

    Default: every notebooks/*.ipynb. Names or paths that match no (or
    several) notebooks are returned as errors.
    """
    available = sorted((ROOT / "notebooks").glob("*.ipynb"))
    chosen: list[Path] = []
    errors: list[UsageError] = []
    for name in names:
        stem = name[:-6] if name.endswith(".ipynb") else name
        matches = [p for p in available if p.stem == stem] or [p for p in available if p.stem.startswith(stem)]
        if len(matches) != 1:
            known = ", ".join(p.stem for p in available)
            what = "matches several notebooks" if matches else "is not a notebook"
            errors.append(UsageError(f"--notebook {name}", f"{what} (known: {known})"))
        else:
            chosen.append(matches[0])
    for p in positional:
        full = (cwd / p).resolve()
        if not full.is_file():
            errors.append(UsageError(str(p), "no such notebook file"))
        else:
            chosen.append(full)
    if errors or names or positional:
        return chosen, errors
    return available, errors


def code_cells(nb) -> list[tuple[int, str]]:
    return [(i, c.source) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


def export_cells(nb, upto: int | None = None) -> tuple[str, list[tuple[int, int]]]:
    """The code cells (up to cell index `upto`) as one module, and per line its (cell, line)."""
    lines: list[str] = []
    origin: list[tuple[int, int]] = []  # per exported line: (cell index, line in cell)
    for index, source in code_cells(nb):
        if upto is not None and index > upto:
            break
        for n, text in enumerate(source.split("\n"), start=1):
            lines.append(text)
            origin.append((index, n))
        lines.append(";")  # a cell's last expression ends there
        origin.append((index, len(source.split("\n"))))
    return "\n".join(lines) + "\nexport {};\n", origin


def static_check(nb, path: Path, deno: list[str]) -> list[Failure]:
    """`deno check` of the code cells exported as one module next to the notebook."""
    text, origin = export_cells(nb)
    script = path.parent / f".{path.stem}.check.ts"
    script.write_text(text)
    try:
        proc = subprocess.run(
            deno + ["check", "--quiet", str(script)],
            cwd=path.parent,
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )
    finally:
        script.unlink(missing_ok=True)
    if proc.returncode == 0:
        return []
    text = ANSI.sub("", proc.stderr + proc.stdout)
    failures: list[Failure] = []
    # Blocks look like "TS2304 [ERROR]: Cannot find name 'x'.\n    code\n    ^\n    at file:///...check.ts:12:5"
    pattern = re.compile(
        r"(?P<msg>(?:TS\d+ \[ERROR\]|error): .*?)\n(?:.*\n)*?\s*at (?:file://)?\S*"
        + re.escape(script.name)
        + r":(?P<line>\d+):(?P<col>\d+)"
    )
    for m in pattern.finditer(text):
        exported = int(m.group("line")) - 1
        if 0 <= exported < len(origin):
            cell, line = origin[exported]
            failures.append(Failure(path.name, cell + 1, line, "deno check: " + m.group("msg").strip()))
    if not failures:
        failures.append(Failure(path.name, 0, None, "deno check failed:\n" + text.strip()))
    return failures


def output_from(msg: dict, execution_count: int | None):
    """An nbformat output for one IOPub message, or None."""
    from nbformat.v4 import new_output

    kind = msg["msg_type"]
    content = msg["content"]
    if kind == "stream":
        return new_output("stream", name=content["name"], text=content["text"])
    if kind == "display_data":
        out = new_output("display_data", data=content["data"], metadata=content.get("metadata", {}))
        display_id = content.get("transient", {}).get("display_id")
        if display_id:
            out.setdefault("metadata", {})
            out["_display_id"] = display_id
        return out
    if kind == "execute_result":
        return new_output(
            "execute_result",
            data=content["data"],
            metadata=content.get("metadata", {}),
            execution_count=content.get("execution_count", execution_count),
        )
    if kind == "error":
        return new_output(
            "error",
            ename=content["ename"],
            evalue=content["evalue"],
            traceback=[ANSI.sub("", t) for t in content.get("traceback", [])],
        )
    return None


def locate_runtime_error(nb, path: Path, deno: list[str], cell_index: int, timeout: float) -> int | None:
    """The source line, within cell `cell_index`, of a runtime error.

    The kernel reports positions in its transpiled code (blank lines and
    type declarations removed), so they do not match the cell. Instead the
    cells up to the failing one are exported as a module and run once with
    `deno run -A` from the notebook's directory; the first stack frame in
    that module gives the exact line. Returns None when the error does not
    reproduce outside the kernel.
    """
    text, origin = export_cells(nb, upto=cell_index)
    script = path.parent / f".{path.stem}.rerun.ts"
    script.write_text(text)
    try:
        proc = subprocess.run(
            deno + ["run", "-A", "--quiet", str(script)],
            cwd=path.parent,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "NO_COLOR": "1"},
        )
    except subprocess.TimeoutExpired:
        return None
    finally:
        script.unlink(missing_ok=True)
    m = re.search(re.escape(script.name) + r":(\d+):(\d+)", ANSI.sub("", proc.stderr))
    if proc.returncode == 0 or not m:
        return None
    exported = int(m.group(1)) - 1
    if 0 <= exported < len(origin) and origin[exported][0] == cell_index:
        return origin[exported][1]
    return None


def execute(nb, path: Path, jupyter_path: str, timeout: float, settle: float, deno: list[str]) -> list[Failure]:
    """Executes every code cell in order; outputs are filed into the notebook."""
    from jupyter_client.manager import KernelManager

    os.environ["JUPYTER_PATH"] = jupyter_path
    km = KernelManager(kernel_name=KERNEL_NAME)
    km.start_kernel(cwd=str(path.parent))
    kc = km.client()
    kc.start_channels()
    failures: list[Failure] = []
    runs: dict[str, CellRun] = {}
    displays: dict[str, list] = {}  # display_id -> outputs showing it

    def file_message(msg: dict) -> None:
        parent = msg.get("parent_header", {}).get("msg_id")
        run = runs.get(parent)
        if run is None:
            return
        kind = msg["msg_type"]
        if kind == "status":
            if msg["content"]["execution_state"] == "idle":
                run.done = True
            return
        if kind == "execute_input":
            run.execution_count = msg["content"].get("execution_count")
            return
        if kind == "clear_output":
            run.outputs.clear()
            return
        if kind == "update_display_data":
            display_id = msg["content"].get("transient", {}).get("display_id")
            for out in displays.get(display_id, []):
                out["data"] = msg["content"]["data"]
                out["metadata"] = msg["content"].get("metadata", {})
            return
        out = output_from(msg, run.execution_count)
        if out is None:
            return
        display_id = out.pop("_display_id", None)
        if display_id:
            displays.setdefault(display_id, []).append(out)
        if kind == "error":
            run.error = msg["content"]
        run.outputs.append(out)

    def drain(until, limit: float) -> bool:
        """Files IOPub messages until `until()` holds or `limit` seconds pass."""
        deadline = time.monotonic() + limit
        while not until():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                file_message(kc.get_iopub_msg(timeout=min(remaining, 0.5)))
            except queue.Empty:
                pass
        return True

    try:
        kc.wait_for_ready(timeout=60)
        for index, source in code_cells(nb):
            msg_id = kc.execute(source, store_history=True, allow_stdin=False, stop_on_error=True)
            run = runs[msg_id] = CellRun(index)
            reply = None
            deadline = time.monotonic() + timeout
            while reply is None:
                try:
                    candidate = kc.get_shell_msg(timeout=0.2)
                    if candidate.get("parent_header", {}).get("msg_id") == msg_id:
                        reply = candidate
                except queue.Empty:
                    pass
                try:  # file whatever IOPub already holds
                    while True:
                        file_message(kc.get_iopub_msg(timeout=0.01))
                except queue.Empty:
                    pass
                if time.monotonic() > deadline:
                    failures.append(Failure(path.name, index + 1, None, f"timed out after {timeout:.0f} s"))
                    km.interrupt_kernel()
                    break
            if reply is None:
                break
            drain(lambda: run.done, 10)
            if run.execution_count is None:
                run.execution_count = reply["content"].get("execution_count")
            if reply["content"].get("status") == "error" or run.error is not None:
                error = run.error or reply["content"]
                message = f"{error.get('ename', 'Error')}: {ANSI.sub('', error.get('evalue', ''))}".strip()
                failures.append(Failure(path.name, index + 1, None, message))
                break
        # Late outputs: keep listening until the kernel is quiet for `settle` seconds.
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < settle:
            try:
                file_message(kc.get_iopub_msg(timeout=0.1))
                quiet_since = time.monotonic()
            except queue.Empty:
                pass
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)

    for failure in failures:
        if failure.line is None and "timed out" not in failure.message:
            failure.line = locate_runtime_error(nb, path, deno, failure.cell - 1, timeout)
    for run in runs.values():
        cell = nb.cells[run.index]
        cell.outputs = run.outputs
        cell.execution_count = run.execution_count
        for out in cell.outputs:
            if out.get("output_type") == "execute_result":
                out["execution_count"] = run.execution_count
    return failures


def write_outputs(nb, path: Path, out_dir: Path) -> None:
    import nbformat
    from nbconvert import HTMLExporter

    out_dir.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(
        template_name="gatelab",
        extra_template_basedirs=[str(JUPYTER_DIR / "nbconvert" / "templates")],
    )
    html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": path.stem}})
    # Write next to the final names, then rename: no half-written reports.
    for name, text in ((path.stem + ".ipynb", nbformat.writes(nb)), (path.stem + ".html", html)):
        with tempfile.NamedTemporaryFile("w", dir=out_dir, delete=False, suffix=".tmp", encoding="utf-8") as f:
            f.write(text)
        os.chmod(f.name, 0o644)  # mkstemp makes 0600; reports are meant to be shared
        os.replace(f.name, out_dir / name)


def self_test(deno: list[str], jupyter_path: str, workdir: Path) -> int:
    """Checks the runner on the two traps with three tiny notebooks.

    late: the last cell prints 300 ms after it went idle; the output must be
    kept. syntax: a syntax error in cell 2, line 2 must be named. runtime: an
    error thrown on line 3 of cell 2 (after a blank line, which the kernel's
    transpiler drops) must be named with its source line.
    """
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    cases = {
        "late": (["const a = 1;", 'setTimeout(() => console.log("late output"), 300);\n"cell done"'], None),
        "syntax": (["const a = 1;", "const b = 2;\nconst c = (;"], (2, 2)),
        "runtime": (["const a = 1;", 'const b = 2;\n\nthrow new Error("planted");'], (2, 3)),
    }
    bad = 0
    for name, (sources, expected) in cases.items():
        path = workdir / f"{name}.ipynb"
        nb = new_notebook(cells=[new_code_cell(src) for src in sources])
        nbformat.write(nb, path)
        found = static_check(nb, path, deno) or execute(nb, path, jupyter_path, 60, 2.0, deno)
        if expected is None:
            texts = [o.get("text", "") for o in nb.cells[-1].outputs]
            ok = not found and any("late output" in t for t in texts)
        else:
            ok = len(found) == 1 and (found[0].cell, found[0].line) == expected
        print(f"{'ok' if ok else 'FAILED':6} self-test {name}: " + ("; ".join(f.render() for f in found) or "no errors"))
        bad += not ok
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebook files (relative to --cwd)")
    parser.add_argument("--notebook", action="append", default=[], metavar="NAME",
                        help="a notebook in notebooks/ by name, e.g. 01_gate_reanalysis or 01 (repeatable)")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="set a parameter of the `parameters` cell: JSON if VALUE parses, else a string (repeatable)")
    parser.add_argument("-r", "--parameter-raw", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="set a parameter to the string VALUE as it is (repeatable)")
    parser.add_argument("--out", type=Path, default=None, help="where executed notebooks go (default reports/notebooks)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per cell")
    parser.add_argument("--settle", type=float, default=2.0, help="quiet seconds after the last cell")
    parser.add_argument("--deno", help="path of the deno executable")
    parser.add_argument("--jupyter-path", help="a JUPYTER_PATH entry holding kernels/gatelab-deno (else one is made)")
    parser.add_argument("--cwd", type=Path, default=Path.cwd(), help="resolve relative paths against this directory")
    parser.add_argument("--self-test", action="store_true", help="check the runner on the two traps, then exit")
    args = parser.parse_args()

    try:
        import jupyter_client  # noqa: F401
        import nbconvert  # noqa: F401
        import nbformat
    except ImportError as e:
        print(
            f"usage_error  {sys.executable}  the notebook runner needs {e.name} in this "
            f"interpreter (the python3 first on PATH): {sys.executable} -m pip install "
            "jupyter_client nbformat nbconvert",
            file=sys.stderr,
        )
        return 2

    if args.self_test:
        deno = deno_command(args.deno)
        with tempfile.TemporaryDirectory(prefix="gatelab-notebooks-selftest-") as workdir:
            return self_test(deno, jupyter_path_for(deno, Path(workdir)), Path(workdir))

    cwd = args.cwd.resolve()
    out = (cwd / args.out).resolve() if args.out is not None else ROOT / "reports" / "notebooks"
    values, errors = parse_parameter_values(args.parameter, args.parameter_raw)
    paths, bad_names = select_notebooks(args.notebook, args.notebooks, cwd)
    errors += bad_names
    notebooks = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if values:
            try:
                inject_parameters(nb, path, values, cwd)
            except UsageError as e:
                errors.append(e)
        notebooks.append((path, nb))
    if errors:
        for e in errors:
            print(e, file=sys.stderr)
        print(f"notebooks: {len(errors)} usage error(s); nothing ran", file=sys.stderr)
        return 2
    if not notebooks:
        print("run_notebooks: no notebooks found", file=sys.stderr)
        return 1
    deno = deno_command(args.deno)
    failures: list[Failure] = []
    with tempfile.TemporaryDirectory(prefix="gatelab-notebooks-") as workdir:
        jupyter_path = args.jupyter_path or jupyter_path_for(deno, Path(workdir))
        for path, nb in notebooks:
            started = time.monotonic()
            found = static_check(nb, path, deno)
            if not found:
                found = execute(nb, path, jupyter_path, args.timeout, args.settle, deno)
            write_outputs(nb, path, out)
            status = "ok" if not found else "FAILED"
            print(f"{status:6} {path.name} ({time.monotonic() - started:.1f} s) -> {out / path.stem}.ipynb, .html")
            for failure in found:
                print("  " + failure.render(), file=sys.stderr)
            failures.extend(found)
    if failures:
        print(f"notebooks: {len(failures)} error(s)", file=sys.stderr)
        for failure in failures:
            print("  " + failure.render(), file=sys.stderr)
        # A notebook stopped by a GatelabError (issues found in its inputs,
        # e.g. a gate that fails validation) is a problem with the input: 2.
        return 2 if all(f.message.startswith("GatelabError:") for f in failures) else 1
    print(f"notebooks: {len(notebooks)} ran without errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
