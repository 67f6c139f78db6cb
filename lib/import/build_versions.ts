/**
 * The first phases of an import's build (lib/import/build.ts): the versions
 * and their slots, each row's episode and versions present, and the checks
 * of one row's mask (a declared version, one version per slot, a bare row
 * skill-free).
 *
 * @module
 */
import { at, type BuildState, NONE, type Version } from "./build_state.ts";

/** A mask column of a version the mapping's `versions` do not declare is an error. */
export function checkDeclaredVersions(s: BuildState): void {
  if (s.mapping.versions === undefined) return;
  for (const v of s.context.maskVersions) {
    if (s.known.has(v)) continue;
    const r = s.rows[0];
    s.issues.push({
      code: "assignment_invalid",
      message: `mask column for version "${v}" but the mapping's versions do not declare it`,
      ...(r ? { file: r.file } : {}),
      path: s.maskColumnOf(v),
    });
  }
}

/**
 * Numbers each episode (split, task, sample) once, so everything per
 * episode later is an array indexed by that number instead of a Map keyed
 * by its text, and lists each row's versions present: from its mask bits
 * (one list per distinct mask), else its injected ids. An injected id
 * outside closed versions is an error; open versions grow by it.
 */
export function numberEpisodes(s: BuildState): void {
  const { rows, order, known } = s;
  const positionOf = new Map(order.map((v, j) => [v, j]));
  const presentOf = new Map<object, readonly string[]>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const e = s.episodeIndex.number(r.split, r.task_id, r.sample_id, s.episodes);
    if (e === s.episodes) s.episodes++;
    s.episodeOf[i] = e;
    let ids: readonly string[];
    if (r.mask !== null) {
      // Rows with equal bits share their mask object (lib/import/rows.ts), so one list each.
      let cached = presentOf.get(r.mask);
      if (cached === undefined) {
        cached = presentIn(r.mask, positionOf);
        presentOf.set(r.mask, cached);
      }
      ids = cached;
    } else ids = r.injected === null || r.injected.length === 0 ? NONE : [...r.injected];
    for (const id of r.injected ?? []) {
      if (known.has(id)) continue;
      if (s.closed) {
        s.issues.push({
          code: "assignment_invalid",
          message: `injected id "${id}" is not among the declared versions (${
            order.slice(0, 4).join(", ")
          }${order.length > 4 ? ", ..." : ""})`,
          ...at(r, s.injectedColumn),
        });
      } else {
        known.add(id);
        order.push(id);
      }
    }
    s.present[i] = ids;
  }
}

/**
 * Each version's slot, chunk and role (the mapping's, else `slot.vN`
 * belongs to slot `slot` and the chunk is the slot), the slots in order,
 * and the default role of a one-version slot (`add`); a slot of several
 * versions without roles is an error.
 */
export function assignRoles(s: BuildState): void {
  for (const v of s.order) {
    const d = s.mapping.versions?.[v];
    const slot = d?.slot ?? (/^(.+)\.v\d+$/.exec(v)?.[1] ?? v);
    s.versions.set(v, {
      version_id: v,
      slot_id: slot,
      chunk_id: d?.chunk_id ?? slot,
      role: d?.role ?? null,
      ...(d?.text_sha256 !== undefined ? { text_sha256: d.text_sha256 } : {}),
    });
  }
  for (const v of s.versions.values()) {
    const list = s.slots.get(v.slot_id) ?? [];
    list.push(v);
    s.slots.set(v.slot_id, list);
  }
  for (const [slot, list] of s.slots) {
    if (list.every((v) => v.role !== null)) continue;
    if (list.length === 1) {
      list[0]!.role = "add";
      s.defaults.push({
        field: `versions.${list[0]!.version_id}.role`,
        value: "add",
        why: "a slot with one version is an ADD candidate unless the mapping says otherwise",
      });
    } else {
      s.issues.push({
        code: "family_invalid",
        message: `slot "${slot}" has ${list.length} versions (${
          list.map((v: Version) => v.version_id).join(", ")
        }): declare their roles (one old, one or more new) in the mapping's versions`,
        ...(s.rows[0] ? { file: s.rows[0].file } : {}),
      });
    }
  }
}

/** Per row: at most one version of a slot present, and none on a bare row. */
export function checkRowMasks(s: BuildState): void {
  const { rows, present, versions } = s;
  const bySlot = new Map<string, string>();
  // A list shared by rows (one per distinct mask) is checked once: lists known to hold at most
  // one version per slot.
  const oneVersionPerSlot = new Set<readonly string[]>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const ids = present[i]!;
    // No versions: nothing to check (and no Map cleared, which allocates).
    if (ids.length === 0 || (oneVersionPerSlot.has(ids) && r.arm !== "bare")) continue;
    const column = r.mask !== null ? undefined : s.injectedColumn;
    if (r.arm === "bare" && ids.length > 0) {
      s.issues.push({
        code: "bare_not_skill_free",
        message: `a bare row has versions present (${ids.join(", ")})`,
        ...at(r, column ?? s.maskColumnOf(ids[0]!)),
      });
      continue;
    }
    bySlot.clear();
    let clean = true;
    for (const id of ids) {
      const v = versions.get(id);
      if (!v) continue;
      const other = bySlot.get(v.slot_id);
      if (other !== undefined) {
        clean = false;
        s.issues.push({
          code: "assignment_invalid",
          message:
            `two versions of slot "${v.slot_id}" in one row (${other} and ${id}); versions of one slot exclude each other`,
          ...at(r, column ?? s.maskColumnOf(id)),
        });
      } else bySlot.set(v.slot_id, id);
    }
    if (clean && r.mask !== null) oneVersionPerSlot.add(ids);
  }
}

/**
 * The versions whose mask bit is 1, in the versions' order (`positionOf`,
 * version to place; a bit of any other version is left out). The same as
 * filtering the versions by their bit, without a keyed lookup per version
 * and row: the row's bits are enumerated (in the mask columns' order,
 * which is the versions' order unless a mapping declares them in
 * another) and sorted only when they are out of order.
 */
function presentIn(
  mask: Readonly<Record<string, 0 | 1>>,
  positionOf: ReadonlyMap<string, number>,
): string[] {
  const ids: string[] = [];
  let last = -1, sorted = true;
  for (const v in mask) {
    if (mask[v] !== 1) continue;
    const p = positionOf.get(v);
    if (p === undefined) continue;
    if (p < last) sorted = false;
    last = p;
    ids.push(v);
  }
  if (!sorted) ids.sort((a, b) => positionOf.get(a)! - positionOf.get(b)!);
  return ids;
}
