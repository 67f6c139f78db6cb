/**
 * EpisodeMap against a Map keyed by JSON.stringify([split, task_id,
 * sample_id]) (the key validation used before): random sets and lookups,
 * ids with "/", and tasks with more episodes than fit its short lists.
 */
import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { EpisodeMap } from "../lib/validate/episode_map.ts";
import type { EpisodeKey } from "../lib/core/types.ts";

const episodeArb: fc.Arbitrary<EpisodeKey> = fc.record({
  split: fc.constantFrom("val", "val/a", "test"),
  task_id: fc.constantFrom("a", "a/val", "b", ""),
  sample_id: fc.nat({ max: 20 }),
});
const keyOf = (e: EpisodeKey) => JSON.stringify([e.split, e.task_id, e.sample_id]);

Deno.test("EpisodeMap behaves as a Map over episode keys", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(episodeArb, fc.integer(), fc.boolean()), { maxLength: 200 }),
      fc.array(episodeArb, { maxLength: 50 }),
      (sets, probes) => {
        const map = new EpisodeMap<number>();
        const reference = new Map<string, [EpisodeKey, number]>();
        for (const [e, v, ifAbsent] of sets) {
          const seen = reference.get(keyOf(e));
          if (ifAbsent) {
            deepEqual(map.setIfAbsent(e, v), seen?.[1]);
            if (!seen) reference.set(keyOf(e), [e, v]);
          } else {
            map.set(e, v);
            reference.set(keyOf(e), [seen?.[0] ?? e, v]);
          }
        }
        deepEqual(map.size, reference.size);
        deepEqual([...map.entries()], [...reference.values()]);
        deepEqual([...map.values()], [...reference.values()].map(([, v]) => v));
        // Probes in random order, then in insertion order (the cursor's case).
        for (
          const e of [
            ...probes,
            ...sets.map(([e]) => e),
            ...[...map.entries()].map(([e]) => e),
          ]
        ) {
          deepEqual([map.has(e), map.get(e)], [
            reference.has(keyOf(e)),
            reference.get(keyOf(e))?.[1],
          ]);
        }
      },
    ),
    { numRuns: 300 },
  );
});
