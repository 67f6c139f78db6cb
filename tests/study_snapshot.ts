/**
 * Snapshot files for the study and reward table tests. Expected renderings
 * live in tests/snapshots/; after an intended change regenerate them with
 * `GATELAB_UPDATE_SNAPSHOTS=1 deno test --allow-read --allow-write --allow-env <test>`
 * and review the diff before committing.
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";

const SNAPSHOTS = new URL("./snapshots/", import.meta.url).pathname;

/** Compares text with a committed snapshot (or writes it when updating). */
export async function assertSnapshotFile(name: string, actual: string): Promise<void> {
  const path = `${SNAPSHOTS}${name}`;
  if (Deno.env.get("GATELAB_UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(path, actual);
    return;
  }
  deepEqual(actual, await Deno.readTextFile(path), `snapshot ${name} differs`);
}
