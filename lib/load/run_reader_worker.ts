/**
 * Web Worker of {@linkcode startRunReader}: reads the posted run directories
 * one after another with `loadRunParts`, posts back each one's parts, the attempt table as
 * `AttemptTable.posted` gives it (its columns transferred), and its
 * progress over traces.jsonl's bytes (`{ id, file, done, total }`, at most a
 * message per percent), then closes itself. An error is posted back as
 * `{ id, error }`, where `id` is the directory's index.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { loadRunParts } from "./read_run.ts";

self.onmessage = async (event: MessageEvent) => {
  const dirs = event.data as readonly string[];
  for (const [id, dir] of dirs.entries()) await post(id, dir);
  // Its heap goes as soon as the last run is posted, not when the reader closes.
  self.close();
};

async function post(id: number, dir: string): Promise<void> {
  try {
    const parts = await loadRunParts(dir, {
      onProgress: (file) => {
        let percent = -1;
        return (done, total) => {
          const now = Math.floor((100 * done) / total);
          if (now === percent) return;
          percent = now;
          self.postMessage({ id, file, done, total });
        };
      },
    });
    const { transfer, ...table } = parts.table!.posted();
    const { manifest, sha256, issues } = parts;
    self.postMessage({ id, run: { dir, manifest, sha256, issues, table } }, [...transfer]);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}
