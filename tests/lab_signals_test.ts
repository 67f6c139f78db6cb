/**
 * `deno task lab` stops cleanly: started as a user starts it (`deno task
 * --config <clone>/deno.json lab --no-browser --port N`, with private
 * Jupyter directories), with a Deno kernel running, a real SIGTERM or
 * SIGINT to the `deno task` process stops JupyterLab and its kernel and the
 * task exits 0; afterwards no process of the tree is left. As root (CI
 * containers) JupyterLab starts only because the task passed --allow-root,
 * and it says so in one line.
 *
 * Needs python3 with jupyterlab, `deno`, and --allow-net=127.0.0.1;
 * skipped, with a message, without them, except in CI (`CI=true`).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pythonStatus } from "../lib/cli/python.ts";
import { IN_CI, mayRun, warnSkip } from "./ci_tools.ts";
import { tempDir } from "./fixtures.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const net = Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state === "granted";
const python = mayRun("python3") ? await pythonStatus(["jupyterlab"]) : null;
const available = net && mayRun("deno") && python !== null && python.python &&
  python.missing.length === 0;
if (!available && !IN_CI) {
  warnSkip(
    "lab_signals_test: skipped, needs python3 with jupyterlab (python3 -m pip install " +
      "jupyterlab), deno, and --allow-net=127.0.0.1",
  );
}

/** pid and command line of every descendant of `pid`, read from /proc by python3. */
async function descendants(pid: number): Promise<[number, string][]> {
  const script = `
import json, os, sys
root, kids = int(sys.argv[1]), {}
for p in filter(str.isdigit, os.listdir("/proc")):
    try:
        ppid = int(open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1])
    except OSError:
        continue
    kids.setdefault(ppid, []).append(int(p))
out, todo = [], [root]
while todo:
    for c in kids.get(todo.pop(), []):
        try:
            out.append([c, open(f"/proc/{c}/cmdline").read().replace("\\0", " ").strip()])
        except OSError:
            continue
        todo.append(c)
print(json.dumps(out))`;
  const out = await new Deno.Command("python3", { args: ["-c", script, String(pid)] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Which of `pids` still run (a zombie counts as gone). */
async function alive(pids: number[]): Promise<number[]> {
  const script = `
import json, sys
left = []
for p in json.loads(sys.argv[1]):
    try:
        state = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        continue
    if state != "Z":
        left.append(p)
print(json.dumps(left))`;
  const out = await new Deno.Command("python3", { args: ["-c", script, JSON.stringify(pids)] })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

async function until<T>(what: string, seconds: number, f: () => Promise<T | null>): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const value = await f().catch(() => null);
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function isRoot(): Promise<boolean> {
  const out = await new Deno.Command("python3", { args: ["-c", "import os; print(os.geteuid())"] })
    .output();
  return new TextDecoder().decode(out.stdout).trim() === "0";
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test({
    name: `deno task lab: ${signal} stops JupyterLab and its kernel, exit 0, no process left`,
    ignore: !available && !IN_CI,
    async fn() {
      await using home = await tempDir();
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = listener.addr.port;
      listener.close();
      const token = crypto.randomUUID();
      const env: Record<string, string> = {
        JUPYTER_DATA_DIR: join(home.path, "data"),
        JUPYTER_CONFIG_DIR: join(home.path, "config"),
        JUPYTER_RUNTIME_DIR: join(home.path, "runtime"),
        NO_COLOR: "1",
      };
      const child = new Deno.Command("deno", {
        args: [
          "task",
          "-q",
          "--config",
          join(ROOT, "deno.json"),
          "lab",
          "--no-browser",
          "--port",
          String(port),
          "--",
          `--ServerApp.token=${token}`,
          "--ServerApp.ip=127.0.0.1",
        ],
        env,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      let stderr = "";
      const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
        new WritableStream({ write: (t) => void (stderr += t) }),
      );
      const base = `http://127.0.0.1:${port}`;
      const auth = { headers: { Authorization: `token ${token}` } };
      let pids: number[] = [];
      try {
        await until("JupyterLab", 120, async () => {
          const r = await fetch(`${base}/api/status`, auth);
          await r.body?.cancel();
          return r.ok ? true : null;
        });
        const started = await fetch(`${base}/api/kernels`, {
          ...auth,
          method: "POST",
          body: JSON.stringify({ name: "gatelab-deno" }),
        });
        equal(started.status, 201);
        const { id } = await started.json();
        // The kernel runs once its process is in the tree and Jupyter answers for it.
        const tree = await until("the Deno kernel process", 120, async () => {
          const t = await descendants(child.pid);
          return t.some(([, cmd]) => / jupyter --kernel /.test(cmd)) ? t : null;
        });
        const kernel = await fetch(`${base}/api/kernels/${id}`, auth);
        equal(kernel.status, 200);
        await kernel.body?.cancel();
        pids = tree.map(([pid]) => pid);
        ok(
          tree.some(([, cmd]) => cmd.includes("jupyterlab")),
          `JupyterLab in ${JSON.stringify(tree)}`,
        );

        child.kill(signal);
        const status = await Promise.race([
          child.status,
          new Promise<null>((r) => setTimeout(() => r(null), 60_000)),
        ]);
        ok(status !== null, `deno task lab did not stop within 60 s of ${signal}`);
        equal(status.code, 0, stderr);
        await reading;
        deepEqual(
          await until("the tree to be gone", 20, async () => {
            const left = await alive(pids);
            return left.length === 0 ? left : null;
          }),
          [],
        );
        ok(stderr.includes(`lab: ${signal}: stopping JupyterLab and its kernels`), stderr);
        const rootLines = stderr.split("\n").filter((l) => l.includes("--allow-root"));
        deepEqual(
          rootLines,
          (await isRoot())
            ? ["lab: running as root, so JupyterLab is started with --allow-root"]
            : [],
        );
      } finally {
        // On a failure, nothing of the tree may outlive the test (it holds the stderr pipe).
        pids = [...new Set([...pids, ...(await descendants(child.pid)).map(([pid]) => pid)])];
        for (const pid of await alive(pids)) Deno.kill(pid, "SIGKILL");
        try {
          child.kill("SIGKILL");
        } catch {
          // already stopped
        }
        await child.status;
        await reading.catch(() => {});
      }
    },
  });
}
