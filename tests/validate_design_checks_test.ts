/** The checks of the pooled design (lib/validate/design_checks.ts), on in-memory rows. */
import { deepEqual } from "node:assert/strict";
import { designChecks } from "../lib/validate/design_checks.ts";
import type { DesignColumn } from "../lib/core/types.ts";
import { episode } from "./validate_units.ts";

const col = (version_id: string, role: DesignColumn["role"] = "add", slot_id = version_id) => ({
  version_id,
  slot_id,
  chunk_id: `k-${version_id}`,
  role,
});
const rows = (masks: (string[] | null)[], gate = 0) =>
  masks.map((mask, i) => ({ gate, episode: episode(`t${i}`), mask }));
const one = [{ planFile: "g/gate.json", manifestFile: "g/manifest.json" }];
const two = [...one, { planFile: "h/gate.json", manifestFile: "h/manifest.json" }];

Deno.test("design checks: a full-rank design has no issue", () => {
  const masks = [["c1"], ["c2"], ["c1", "c2"], []];
  deepEqual(
    designChecks({ columns: [col("c1"), col("c2")], rows: rows(masks), gates: one, clean: true }),
    [],
  );
});

Deno.test("design checks: a column never present is named twice: absent, and the rank it costs", () => {
  const masks = [["c1"], ["c3"], ["c1", "c3"], [], ["c3"]];
  const issues = designChecks({
    columns: [col("c1"), col("c2"), col("c3")],
    rows: rows(masks),
    gates: one,
    clean: true,
  });
  deepEqual(issues.map((i) => [i.code, i.file, i.path, i.message]), [
    [
      "not_identifiable",
      "g/gate.json",
      "c2",
      "version c2 is never present in 5 rows; its coefficient cannot be estimated",
    ],
    [
      "not_identifiable",
      "g/gate.json",
      "c2",
      "design matrix has rank 2 of 3 columns (5 rows): c2 is never present",
    ],
  ]);
});

Deno.test("design checks: an always-present family collinear with an always-present chunk; pooled gates name no file", () => {
  const columns = [col("o", "old", "f"), col("n", "new", "f"), col("c", "current", "s")];
  const masks = [["o", "c"], ["n", "c"], ["o", "c"], ["n", "c"]];
  const issues = designChecks({
    columns,
    rows: [...rows(masks.slice(0, 2)), ...rows(masks.slice(2), 1)],
    gates: two,
    clean: true,
  });
  deepEqual(issues.map((i) => [i.file ?? null, i.path, i.message]), [[
    null,
    "c",
    "design matrix has rank 2 of 3 columns (4 rows): o + n = c in every row; their effects cannot be told apart",
  ]]);
});

Deno.test("design checks: rows without a mask are left out of the design", () => {
  const issues = designChecks({
    columns: [col("c1")],
    rows: rows([null, ["c1"], null, []]),
    gates: one,
    clean: false,
  });
  deepEqual(issues, []);
  const absent = designChecks({
    columns: [col("c1")],
    rows: rows([null, [], null]),
    gates: one,
    clean: false,
  });
  deepEqual(absent.map((i) => i.message), [
    "version c1 is never present in 1 rows; its coefficient cannot be estimated",
    "design matrix has rank 0 of 1 columns (1 rows): c1 is never present",
  ]);
});

Deno.test("design checks: no row at all is reported per gate only when nothing else is wrong", () => {
  const input = { columns: [col("c1"), col("c2")], rows: [], gates: two };
  deepEqual(designChecks({ ...input, clean: true }).map((i) => [i.file, i.path, i.message]), [
    [
      "g/manifest.json",
      "tasks",
      "the masked run plans no tasks, so the gate has 0 paired rows and none of its 2 coefficients can be estimated",
    ],
    [
      "h/manifest.json",
      "tasks",
      "the masked run plans no tasks, so the gate has 0 paired rows and none of its 2 coefficients can be estimated",
    ],
  ]);
  deepEqual(designChecks({ ...input, clean: false }), []);
  deepEqual(designChecks({ ...input, columns: [], clean: true }), []);
});
