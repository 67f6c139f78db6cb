/**
 * The names of an import's directories and gates (lib/import/build.ts):
 * one directory per checkpoint, `bare-<split>` per bare run and
 * `gate-<round>` per gate in it, each distinct for distinct source values
 * (lib/import/dir_names.ts), and the gate ids.
 *
 * @module
 */
import { type BuildState, checkpointKey } from "./build_state.ts";
import { distinctNames, type NameRequest, slug } from "./dir_names.ts";

/** A source value whose directory got a suffix, because another value makes the same name. */
export interface Renamed {
  readonly field: "checkpoint_id" | "split" | "round";
  /** The value (null: the checkpoint is unrecorded, or the default round). */
  readonly value: string | null;
  /** The name it shares with another value. */
  readonly name: string;
  /** The directory it got (relative to `--out`). */
  readonly dir: string;
}

/** The names of every directory of an import. */
export interface ImportNames {
  /** Checkpoint key to its directory. */
  readonly checkpointDir: ReadonlyMap<string, string>;
  /** Bare run key to its directory (`<checkpoint>/bare-<split>`) and its split's name. */
  readonly bare: ReadonlyMap<string, { readonly dir: string; readonly split: string }>;
  /** Round key to its gate id and directory. */
  readonly gate: ReadonlyMap<string, { readonly id: string; readonly dir: string }>;
  readonly renamed: readonly Renamed[];
}

/**
 * Names every directory: checkpoints (`checkpoint-unrecorded` when not
 * recorded), each checkpoint's splits, each checkpoint's gates (the round
 * as gate id, else `gate` or `gate-<checkpoint>`; a `-<split>` suffix when
 * the checkpoint has several splits).
 */
export function importNames(s: BuildState): ImportNames {
  const renamed: Renamed[] = [];
  const checkpoints = [...new Set(s.rows.map((r) => checkpointKey(r.checkpoint_id)))];
  const ckptNames = named(
    checkpoints.map((c) => {
      const name = c === "" ? "checkpoint-unrecorded" : slug(c);
      return { value: c, name, exact: c === name };
    }),
    (i, name, dir) =>
      renamed.push({ field: "checkpoint_id", value: checkpoints[i] || null, name, dir }),
    (_i, name) => name,
  );
  const checkpointDir = new Map(checkpoints.map((c, i) => [c, ckptNames[i]!]));
  const bare = new Map<string, { dir: string; split: string }>();
  for (const c of checkpoints) {
    const plans = [...s.plans.values()].filter((p) => checkpointKey(p.checkpoint) === c);
    const names = named(
      plans.map((p) => ({ value: p.split, name: slug(p.split), exact: slug(p.split) === p.split })),
      (i, name, dir) => renamed.push({ field: "split", value: plans[i]!.split, name, dir }),
      (_i, name) => `${checkpointDir.get(c)}/bare-${name}`,
    );
    plans.forEach((p, i) => {
      bare.set(p.key, { dir: `${checkpointDir.get(c)}/bare-${names[i]}`, split: names[i]! });
    });
  }
  const gate = gateNames(s, checkpoints, checkpointDir, bare, renamed);
  return { checkpointDir, bare, gate, renamed };
}

/** Gate ids in round order, then each checkpoint's gate directories. */
function gateNames(
  s: BuildState,
  checkpoints: readonly string[],
  checkpointDir: ReadonlyMap<string, string>,
  bare: ReadonlyMap<string, { readonly split: string }>,
  renamed: Renamed[],
): Map<string, { id: string; dir: string }> {
  const ids = new Set<string>();
  const gates: { key: string; id: string; round: string | null; c: string; split: string }[] = [];
  for (const [key, list] of s.roundRows) {
    const first = s.rows[list[0]!]!;
    const c = checkpointKey(first.checkpoint_id);
    let id = first.round ?? (checkpoints.length > 1 ? `gate-${checkpointDir.get(c)}` : "gate");
    for (let n = 2; ids.has(id); n++) id = `${first.round ?? "gate"}-${n}`;
    ids.add(id);
    gates.push({
      key,
      id,
      round: first.round,
      c,
      split: bare.get(s.roundPlan.get(key)!.key)!.split,
    });
  }
  const out = new Map<string, { id: string; dir: string }>();
  const splits = new Map<string, number>();
  for (const p of s.plans.values()) {
    const c = checkpointKey(p.checkpoint);
    splits.set(c, (splits.get(c) ?? 0) + 1);
  }
  for (const c of checkpoints) {
    const here = gates.filter((g) => g.c === c);
    const names = named(
      here.map((g) => {
        const name = slug(g.id);
        const base = name.startsWith("gate") ? name : `gate-${name}`;
        const split = (splits.get(c) ?? 1) > 1 ? `-${g.split}` : "";
        return { value: g.id, name: base + split, exact: base === g.id };
      }),
      (i, name, dir) => renamed.push({ field: "round", value: here[i]!.round, name, dir }),
      (_i, name) => `${checkpointDir.get(c)}/${name}`,
    );
    here.forEach((g, i) =>
      out.set(g.key, { id: g.id, dir: `${checkpointDir.get(c)}/${names[i]}` })
    );
  }
  return out;
}

/** Distinct names for the requests; each renamed one is told with its shared name and its directory. */
function named(
  requests: readonly NameRequest[],
  onRenamed: (i: number, name: string, dir: string) => void,
  dirOf: (i: number, name: string) => string,
): readonly string[] {
  const { names, renamed } = distinctNames(requests);
  for (const i of renamed.keys()) onRenamed(i, requests[i]!.name, dirOf(i, names[i]!));
  return names;
}
