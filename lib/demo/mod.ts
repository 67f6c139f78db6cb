/**
 * The deterministic demo study simulator behind data/demo/: a pure
 * generator of every file and a writer. `generateDemo` and `writeDemo` are
 * also part of lib/mod.ts; the simulator's parts (reward model, masks,
 * truth) are imported from their own files.
 *
 * @module
 */
export { generateDemo } from "./generate.ts";
export { listDemoFiles, writeDemo } from "./write.ts";
export { DEMO_SEEDS } from "./params.ts";
export { generateLadderDemo, LADDER_DEMO, LADDER_DEMO_TYPES } from "./ladder_demo.ts";
