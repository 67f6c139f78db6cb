/**
 * An `--out` that is itself mode 555 (its parent writable) leaves nothing
 * beside it after a rewrite (issue 31, item 15): gatelab makes its own
 * moved-aside directory writable to remove it. Modes bind an ordinary user;
 * root ignores them through its CAP_DAC_OVERRIDE, so as root (CI) the
 * commands run under `setpriv` with that capability (and
 * CAP_DAC_READ_SEARCH) dropped from the bounding set: still uid 0, owner of
 * the files, but held to their modes as any owner is.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { DEMO, gateTask, ROOT } from "./gate_process.ts";
import { tempDir } from "./fixtures.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

/** Whether this process runs as root: the owner of a file it makes (no --allow-sys needed). */
const ROOT_USER = (() => {
  const probe = Deno.makeTempFileSync();
  try {
    return Deno.statSync(probe).uid === 0;
  } finally {
    Deno.removeSync(probe);
  }
})();
const ignore = ROOT_USER && !mayRun("setpriv") && !IN_CI;

/** `deno task gate <args>` in `cwd`, held to file modes (see the module). */
async function gateHeldToModes(cwd: string, args: readonly string[]) {
  const task = gateTask();
  const command = ROOT_USER ? "setpriv" : "deno";
  const drop = ["--bounding-set", "-dac_override,-dac_read_search", "--", "deno"];
  const { code, stderr } = await new Deno.Command(command, {
    args: [...(ROOT_USER ? drop : []), ...task.args, ...args],
    cwd: ROOT,
    env: { ...task.env, INIT_CWD: cwd, NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test({
  name: "a mode-555 --out is replaced with nothing left beside it",
  ignore,
  fn: async () => {
    await using dir = await tempDir();
    const out = join(dir.path, "out555");
    const args = ["sequential", join(DEMO, "ckpt-a", "gate-a"), "--out", out, "--quiet"];
    equal((await gateHeldToModes(dir.path, args)).code, 0);
    await Deno.chmod(out, 0o555);
    // Held to modes, nothing can be made in the mode-555 output itself (the case of the issue).
    const drop = ROOT_USER
      ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
      : [];
    const touch = await new Deno.Command(drop[0] ?? "sh", {
      args: [...drop.slice(1), ...(ROOT_USER ? ["sh"] : []), "-c", `: > ${join(out, "probe")}`],
      stderr: "null",
    }).output();
    equal(touch.code === 0, false, "a file could be made in the mode-555 --out");
    const r = await gateHeldToModes(dir.path, args);
    equal(r.code, 0, r.stderr);
    deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name), ["out555"]);
  },
});
