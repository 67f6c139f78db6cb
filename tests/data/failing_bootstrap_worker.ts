/**
 * A bootstrap worker that fails on its first message, for
 * tests/infer_bootstrap_bytes_test.ts: the caller must compute the block
 * itself and say so, never hang or drop the draws.
 *
 * @module
 */
/// <reference lib="deno.worker" />
self.onmessage = () => {
  throw new Error("out of memory (test)");
};
