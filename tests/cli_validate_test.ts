/**
 * `gate validate` ends through finish() like every command, but its
 * validation.json is its result whether the gate passes or not: a failed
 * validation exits 2 yet replaces --out (never `<out>.failed`, which is where
 * a refusal goes when --out holds an earlier result).
 */
import { deepEqual } from "node:assert/strict";
import { main } from "../lib/cli/main.ts";
import { quiet } from "./fixtures.ts";

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("validate: a failing gate exits 2 and replaces an earlier ok validation.json in --out", async () => {
  const tmp = await Deno.makeTempDir();
  const out = `${tmp}/v`;
  deepEqual(await quiet(() => main(["validate", "data/demo/ckpt-a/gate-a", "--out", out])), 0);
  deepEqual((await readJson(`${out}/validation.json`)).ok, true);
  // The cross-service round's masked run records another endpoint than its bare run.
  const failing = "data/demo/ckpt-c/gate-online-c-xsvc";
  deepEqual(await quiet(() => main(["validate", failing, "--out", out, "--quiet"])), 2);
  const v = await readJson(`${out}/validation.json`);
  deepEqual([v.ok, v.counts], [false, { provenance_mismatch: 1 }]);
  deepEqual(v.generator.command, `gate validate ${failing} --out ${out} --quiet`);
  deepEqual(await exists(`${out}.failed`), false);
  await Deno.remove(tmp, { recursive: true });
});
