/**
 * `GATELAB_UPDATE_SNAPSHOTS=1` never turns a snapshot difference into a
 * pass: it writes the snapshot and fails; in CI it is refused. The steps
 * with the variable set run in a child (`updating`), since the test
 * process's environment is shared by every file of a `--parallel` run.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { assertSnapshotFile } from "./study_snapshot.ts";
import { IN_CI } from "./ci_tools.ts";

const snapshot = (name: string) => new URL(`./snapshots/${name}`, import.meta.url);

/** The steps under `GATELAB_UPDATE_SNAPSHOTS=1` (run by the test in a child). */
export async function updating(name: string): Promise<void> {
  const path = snapshot(name);
  if (IN_CI) {
    await rejects(() => assertSnapshotFile(name, "a\n"), /refused in CI/);
    return;
  }
  await rejects(() => assertSnapshotFile(name, "a\n"), /snapshot .* written; review the diff/);
  deepEqual(await Deno.readTextFile(path), "a\n");
  await assertSnapshotFile(name, "a\n"); // nothing to update: passes
  await rejects(() => assertSnapshotFile(name, "b\n"), /snapshot .* updated; review the diff/);
  deepEqual(await Deno.readTextFile(path), "b\n");
}

Deno.test("snapshots: an updating run writes, then fails; an unchanged snapshot passes; CI refuses", async () => {
  const name = `probe-${crypto.randomUUID()}.snap`;
  await rejects(() => assertSnapshotFile(name, "a\n"), /snapshot .* is missing/);
  try {
    const { code, stderr } = await new Deno.Command("deno", {
      args: [
        "eval",
        `import { updating } from ${JSON.stringify(import.meta.url)};
await updating(${JSON.stringify(name)});`,
      ],
      env: { GATELAB_UPDATE_SNAPSHOTS: "1" },
      stdout: "inherit",
      stderr: "piped",
    }).output();
    equal(code, 0, new TextDecoder().decode(stderr));
  } finally {
    await Deno.remove(snapshot(name)).catch(() => {});
  }
  await rejects(() => assertSnapshotFile(name, "b\n"), /is missing/);
});
