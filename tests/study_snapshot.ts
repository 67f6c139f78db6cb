/**
 * Snapshot files for the study and reward table tests. Expected renderings
 * live in tests/snapshots/; after an intended change regenerate them with
 * `GATELAB_UPDATE_SNAPSHOTS=1 deno test --allow-read --allow-write --allow-env <test>`
 * and review the diff before committing. An updating run never passes on a
 * difference: it writes the new snapshot and then fails, naming it, so the
 * next plain run is the one that passes. In CI (`CI=true`) updating is
 * refused.
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";
import { IN_CI } from "./ci_tools.ts";

const SNAPSHOTS = new URL("./snapshots/", import.meta.url).pathname;

/**
 * Compares text with a committed snapshot. With `GATELAB_UPDATE_SNAPSHOTS=1`
 * a differing (or missing) snapshot is written and the test then fails;
 * in CI that variable is refused.
 */
export async function assertSnapshotFile(name: string, actual: string): Promise<void> {
  const path = `${SNAPSHOTS}${name}`;
  let stored: string | null = null;
  try {
    stored = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (Deno.env.get("GATELAB_UPDATE_SNAPSHOTS") === "1") {
    if (IN_CI) throw new Error("GATELAB_UPDATE_SNAPSHOTS=1 is refused in CI (CI=true)");
    if (stored === actual) return;
    await Deno.writeTextFile(path, actual);
    throw new Error(
      `snapshot ${name} ${
        stored === null ? "written" : "updated"
      }; review the diff, then run the test again without GATELAB_UPDATE_SNAPSHOTS`,
    );
  }
  if (stored === null) throw new Error(`snapshot ${name} is missing (tests/snapshots/${name})`);
  deepEqual(actual, stored, `snapshot ${name} differs`);
}
