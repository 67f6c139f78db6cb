/**
 * `GATELAB_UPDATE_SNAPSHOTS=1` never turns a snapshot difference into a
 * pass: it writes the snapshot and fails; in CI it is refused.
 */
import { deepEqual, rejects } from "node:assert/strict";
import { assertSnapshotFile } from "./study_snapshot.ts";
import { IN_CI } from "./ci_tools.ts";

Deno.test("snapshots: an updating run writes, then fails; an unchanged snapshot passes; CI refuses", async () => {
  const name = `probe-${crypto.randomUUID()}.snap`;
  const path = new URL(`./snapshots/${name}`, import.meta.url);
  await rejects(() => assertSnapshotFile(name, "a\n"), /snapshot .* is missing/);
  Deno.env.set("GATELAB_UPDATE_SNAPSHOTS", "1");
  try {
    if (IN_CI) {
      await rejects(() => assertSnapshotFile(name, "a\n"), /refused in CI/);
      return;
    }
    await rejects(() => assertSnapshotFile(name, "a\n"), /snapshot .* written; review the diff/);
    deepEqual(await Deno.readTextFile(path), "a\n");
    await assertSnapshotFile(name, "a\n"); // nothing to update: passes
    await rejects(() => assertSnapshotFile(name, "b\n"), /snapshot .* updated; review the diff/);
    deepEqual(await Deno.readTextFile(path), "b\n");
  } finally {
    Deno.env.delete("GATELAB_UPDATE_SNAPSHOTS");
    await Deno.remove(path).catch(() => {});
  }
  await rejects(() => assertSnapshotFile(name, "b\n"), /is missing/);
});
