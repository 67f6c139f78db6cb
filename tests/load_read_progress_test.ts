/**
 * Reading a run reports its traces.jsonl's bytes (`gate analyze`'s reading
 * progress): rising, ending at the file's size, for the file asked about.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadRunParts } from "../lib/load/read_run.ts";

Deno.test("loadRunParts: progress over traces.jsonl's bytes, ending at its size", async () => {
  const dir = "data/demo/ckpt-a/bare-val";
  const file = join(dir, "traces.jsonl");
  const size = (await Deno.stat(file)).size;
  const calls: [number, number][] = [];
  const asked: string[] = [];
  const parts = await loadRunParts(dir, {
    onProgress: (f) => (asked.push(f), (done, total) => calls.push([done, total])),
  });
  deepEqual([parts.issues, asked], [[], [file]]);
  ok(calls.length > 0 && calls.every(([, total]) => total === size));
  ok(calls.every(([done], i) => i === 0 || done >= calls[i - 1]![0]));
  deepEqual(calls.at(-1), [size, size]);
  // Without the option nothing is asked, and the parts are the same.
  deepEqual((await loadRunParts(dir)).sha256, parts.sha256);
});
