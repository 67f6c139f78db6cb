/**
 * Directory names an import makes from source values (checkpoints,
 * splits, rounds): safe on every file system, and never one directory for
 * two values (docs/import.md, "Directory names").
 *
 * @module
 */
import { sha256Hex } from "../core/sha256.ts";

/**
 * A directory-safe name: letters, digits, `.`, `_`, `-`; anything else becomes `-`.
 *
 * @example
 * ```ts
 * import { slug } from "./dir_names.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([slug("r 1"), slug("ck/2"), slug("..")], ["r-1", "ck-2", "x"]);
 * ```
 */
export function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return s === "" ? "x" : s;
}

/** One source value and the directory name it would get. */
export interface NameRequest {
  /** The value (distinct within one call). */
  readonly value: string;
  /** Its directory name before disambiguation. */
  readonly name: string;
  /** Whether the name is the value itself (then it is kept when it alone is). */
  readonly exact: boolean;
}

/** The names given, and which values were renamed. */
export interface DistinctNames {
  readonly names: readonly string[];
  /** Indices of the renamed values. */
  readonly renamed: ReadonlySet<number>;
}

/**
 * Names for distinct values, distinct themselves even where the file
 * system ignores case: when several values would share a name (in any
 * case), each gets `-<8 hex>`, the start of its value's SHA-256, except
 * the one value whose name is the value itself (if just one is). The
 * suffix depends only on the value, so the same input gives the same
 * names, whatever the row order.
 *
 * @param requests The values and their names.
 * @returns The names, in the same order, and which were renamed.
 *
 * @example Rounds "r 1" and "r-1" would both be gate-r-1
 * ```ts
 * import { distinctNames } from "./dir_names.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { names, renamed } = distinctNames([
 *   { value: "r 1", name: "gate-r-1", exact: false },
 *   { value: "r-1", name: "gate-r-1", exact: false },
 *   { value: "r2", name: "gate-r2", exact: false },
 * ]);
 * // printf "r 1" | sha256sum: bdb7cfb2...; printf "r-1" | sha256sum: a5fa777a...
 * deepEqual(names, ["gate-r-1-bdb7cfb2", "gate-r-1-a5fa777a", "gate-r2"]);
 * deepEqual([...renamed], [0, 1]);
 * ```
 */
export function distinctNames(requests: readonly NameRequest[]): DistinctNames {
  const groups = new Map<string, number[]>();
  requests.forEach((r, i) => {
    const key = r.name.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const digits of [8, 64]) {
    const names = requests.map((r) => r.name);
    const renamed = new Set<number>();
    for (const group of groups.values()) {
      if (group.length === 1) continue;
      const exact = group.filter((i) => requests[i]!.exact);
      for (const i of group) {
        if (exact.length === 1 && exact[0] === i) continue;
        const r = requests[i]!;
        names[i] = `${r.name}-${sha256Hex(new TextEncoder().encode(r.value)).slice(0, digits)}`;
        renamed.add(i);
      }
    }
    // A value may itself be spelt like another's renamed name: then the longer suffix.
    if (new Set(names.map((n) => n.toLowerCase())).size === names.length) return { names, renamed };
  }
  throw new RangeError(`Cannot name ${requests.length} directories apart`);
}
