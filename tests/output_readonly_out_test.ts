/**
 * An `--out` that is itself mode 555 (its parent writable) leaves nothing
 * beside it after a rewrite (issue 31, item 15): gatelab makes its own
 * moved-aside directory writable to remove it. Root ignores modes, so this
 * runs only where modes bind (not as root).
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { gate } from "./gate_process.ts";
import { tempDir } from "./fixtures.ts";
import { DEMO } from "./gate_process.ts";

/** Whether modes bind this user (not root): a file cannot be made in a mode-555 directory. */
function modesBind(): boolean {
  const probe = Deno.makeTempDirSync();
  Deno.chmodSync(probe, 0o555);
  try {
    Deno.writeTextFileSync(join(probe, "x"), "");
    return false;
  } catch {
    return true;
  } finally {
    Deno.chmodSync(probe, 0o755);
    Deno.removeSync(probe, { recursive: true });
  }
}

Deno.test({
  name: "a mode-555 --out is replaced with nothing left beside it",
  ignore: !modesBind(),
  fn: async () => {
    await using dir = await tempDir();
    const out = join(dir.path, "out555");
    const args = ["sequential", join(DEMO, "ckpt-a", "gate-a"), "--out", out, "--quiet"];
    equal((await gate(dir.path, args)).code, 0);
    await Deno.chmod(out, 0o555);
    const r = await gate(dir.path, args);
    equal(r.code, 0, r.stderr);
    deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name), ["out555"]);
  },
});
