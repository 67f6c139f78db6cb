/**
 * End-to-end in a real browser: JupyterLab started the way `deno task lab`
 * starts it (lib/cli/lab.ts: `labInvocation` and the project kernelspec for
 * the running Deno binary), headless on a free loopback port, and notebook
 * 01 opened in headless Chromium driven over the DevTools protocol. All
 * cells are run through the UI (menu Run > Run All Cells, clicked with the
 * mouse); then every code cell must have finished, none may show an error
 * or stderr output, and the figures (inline SVG) and tables must be in the
 * page, with text cells left-aligned and numbers right-aligned. A screenshot
 * goes to reports/notebooks_browser/notebook01.png. The test starts and
 * stops the server and the browser itself; autosave is off and the
 * notebook file must be unchanged afterwards.
 *
 * Needs chromium (`apt-get install -y chromium`) and JupyterLab
 * (`python3 -m pip install jupyterlab`); skipped, with a message, without
 * them, except in CI (`CI=true`), where it runs and fails.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { labInvocation } from "../lib/cli/lab.ts";
import { PROJECT_ROOT, writeProjectKernelSpec } from "../lib/cli/kernelspec.ts";
import { pythonStatus } from "../lib/cli/python.ts";
import { IN_CI, warnSkip } from "./ci_tools.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { firstPage, launchChromium } from "./cdp.ts";

const NOTEBOOK = "01_gate_reanalysis.ipynb";
const can = (command: string) =>
  Deno.permissions.querySync({ name: "run", command }).state === "granted";
const net = Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state === "granted";
const python = can("python3") ? await pythonStatus(["jupyterlab"]) : null;
const available = can("chromium") && net && python !== null && python.python &&
  python.missing.length === 0;
if (!available && !IN_CI) {
  warnSkip(
    "notebooks_browser_test: skipped — needs chromium and python3 with jupyterlab " +
      "(apt-get install -y chromium; python3 -m pip install jupyterlab) and " +
      "--allow-run=chromium,python3 --allow-net=127.0.0.1",
  );
}

/** A free TCP port on the loopback interface. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** User settings for the test's JupyterLab: no autosave, every cell in the DOM, no news. */
const SETTINGS: Record<string, unknown> = {
  "@jupyterlab/docmanager-extension/plugin": { autosave: false },
  "@jupyterlab/notebook-extension/tracker": { windowingMode: "none" },
  "@jupyterlab/apputils-extension/notification": { fetchNews: "false", checkForUpdates: false },
  "@jupyterlab/extensionmanager-extension/plugin": { enabled: false },
};

/** Starts JupyterLab as `deno task lab --no-browser --port N` does, plus a token and private dirs. */
async function startLab(home: string) {
  const port = freePort();
  const token = crypto.randomUUID().replaceAll("-", "");
  const settingsDir = join(home, "settings");
  for (const [id, value] of Object.entries(SETTINGS)) {
    const file = join(settingsDir, `${id}.jupyterlab-settings`);
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(value));
  }
  const jupyterDir = await writeProjectKernelSpec();
  const lab = labInvocation(PROJECT_ROOT, jupyterDir, { noBrowser: true, port }, undefined);
  const process = new Deno.Command(lab.command, {
    args: [
      ...lab.args,
      "--ServerApp.ip=127.0.0.1",
      "--allow-root", // CI runs as root; JupyterLab refuses that without it
      "--ServerApp.port_retries=0",
      `--IdentityProvider.token=${token}`,
    ],
    env: {
      ...lab.env,
      JUPYTER_CONFIG_DIR: join(home, "config"),
      JUPYTER_RUNTIME_DIR: join(home, "runtime"),
      JUPYTERLAB_SETTINGS_DIR: settingsDir,
      JUPYTERLAB_WORKSPACES_DIR: join(home, "workspaces"),
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  let exited = false;
  process.status.then(() => (exited = true));
  (async () => {
    for await (const chunk of process.stderr.pipeThrough(new TextDecoderStream())) log.push(chunk);
  })();
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${base}/api/status?token=${token}`)
      .then(async (r) => (await r.body?.cancel(), r.ok))
      .catch(() => false);
    if (up) break;
    if (exited || Date.now() > deadline) {
      if (!exited) process.kill("SIGKILL");
      await process.status;
      throw new Error(`JupyterLab did not start:\n${log.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    base,
    token,
    log,
    async stop() {
      // Shut the kernels down through the API, then stop the server.
      const kernels: { id: string }[] = await fetch(`${base}/api/kernels?token=${token}`)
        .then((r) => r.json()).catch(() => []);
      for (const k of kernels) {
        await fetch(`${base}/api/kernels/${k.id}?token=${token}`, { method: "DELETE" })
          .then((r) => r.body?.cancel()).catch(() => {});
      }
      process.kill("SIGTERM");
      await process.status;
    },
  };
}

/** What the page shows once every cell ran. */
interface PageState {
  codeCells: number;
  prompts: string[];
  errors: string[];
  svgs: number;
  tables: number;
  textAlign: string | null;
  numberAlign: string | null;
  noteAlign: string | null;
  kernel: string;
}

const STATE_JS = `(() => {
  const cells = [...document.querySelectorAll(".jp-Notebook .jp-CodeCell")];
  const outputs = [...document.querySelectorAll(".jp-Notebook .jp-OutputArea-output")];
  const td = (cls) => document.querySelector(".jp-Notebook .jp-OutputArea-output td." + cls);
  return {
    codeCells: cells.length,
    prompts: cells.map((c) => c.querySelector(".jp-InputPrompt")?.textContent?.trim() ?? ""),
    errors: outputs.filter((o) => o.getAttribute("data-mime-type") === "application/vnd.jupyter.stderr")
      .map((o) => o.textContent.slice(0, 400)),
    svgs: outputs.reduce((n, o) => n + o.querySelectorAll("svg[role=img], svg.plot, figure svg, :scope > svg").length, 0),
    tables: outputs.reduce((n, o) => n + o.querySelectorAll("table").length, 0),
    textAlign: td("l") ? getComputedStyle(td("l")).textAlign : null,
    numberAlign: td("r") ? getComputedStyle(td("r")).textAlign : null,
    noteAlign: (() => { const n = document.querySelector(".jp-Notebook .jp-OutputArea-output tfoot td");
      return n ? getComputedStyle(n).textAlign : null; })(),
    kernel: document.querySelector(".jp-Toolbar-kernelName, .jp-KernelName")?.textContent?.trim() ?? "",
  };
})()`;

Deno.test({
  name: "JupyterLab in headless Chromium: notebook 01 runs through the UI with figures and tables",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const notebookPath = join(PROJECT_ROOT, "notebooks", NOTEBOOK);
    const before = sha256Hex(await Deno.readFile(notebookPath));
    const home = await Deno.makeTempDir({ prefix: "gatelab-lab-" });
    const lab = await startLab(home);
    const browser = await launchChromium(1500, 1100).catch(async (e) => {
      await lab.stop();
      throw e;
    });
    try {
      const page = await firstPage(browser);
      await page.send("Page.enable");
      await page.send("Runtime.enable");
      await page.send("Page.navigate", {
        url: `${lab.base}/lab/tree/${NOTEBOOK}?token=${lab.token}`,
      });
      // The notebook is open, with the project's kernel, and the kernel is idle.
      await page.waitFor(
        `document.querySelectorAll(".jp-Notebook .jp-CodeCell").length > 0 &&
         document.querySelector(".jp-Toolbar-kernelName")?.textContent?.trim() === "Deno (gatelab)" &&
         document.querySelector(".jp-Notebook-ExecutionIndicator")?.getAttribute("data-status") === "idle"`,
        "the notebook with an idle Deno (gatelab) kernel",
        120_000,
      );
      // Run > Run All Cells, with the mouse.
      await page.click(
        `[...document.querySelectorAll(".lm-MenuBar-itemLabel")].find((e) => e.textContent.trim() === "Run")`,
        "the Run menu",
      );
      await page.click(
        `[...document.querySelectorAll(".lm-Menu-itemLabel")].find((e) => e.textContent.trim() === "Run All Cells")`,
        "Run All Cells",
      );
      const state = await page.waitFor<PageState>(
        `(() => { const s = ${STATE_JS};
           return s.codeCells > 0 && s.prompts.every((p) => /^\\[\\d+\\]:$/.test(p)) &&
             document.querySelector(".jp-Notebook-ExecutionIndicator")?.getAttribute("data-status") === "idle"
             ? s : null; })()`,
        "every code cell to finish",
        300_000,
      ).catch(async (error) => {
        const now = await page.evaluate<PageState>(STATE_JS).catch(() => null);
        throw new Error(`${error.message}\npage state: ${JSON.stringify(now)}`);
      });
      // Late outputs: give the page a moment, then read the final state.
      await new Promise((r) => setTimeout(r, 1500));
      const final = await page.evaluate<PageState>(STATE_JS);
      deepEqual(
        final.errors,
        [],
        `no cell shows an error or stderr output; shown: ${JSON.stringify(final.errors)}`,
      );
      deepEqual(final.codeCells, state.codeCells);
      ok(final.prompts.every((p) => /^\[\d+\]:$/.test(p)), `all cells ran: ${final.prompts}`);
      ok(final.svgs >= 3, `figures in the page: ${final.svgs} SVGs`);
      ok(final.tables >= 6, `tables in the page: ${final.tables}`);
      deepEqual([final.textAlign, final.numberAlign, final.noteAlign], ["left", "right", "left"]);
      // Screenshot: the selection table, with the figures below it.
      await page.evaluate(
        `[...document.querySelectorAll(".jp-OutputArea-output caption")]
           .find((c) => c.textContent.startsWith("Selection by"))?.closest(".jp-Cell")?.scrollIntoView()`,
      );
      await new Promise((r) => setTimeout(r, 500));
      const shot = await page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
      const dir = join(PROJECT_ROOT, "reports", "notebooks_browser");
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeFile(
        join(dir, "notebook01.png"),
        Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0)),
      );
      page.close();
    } finally {
      await browser.close();
      await lab.stop();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
    deepEqual(sha256Hex(await Deno.readFile(notebookPath)), before, "notebook file unchanged");
  },
});
