/**
 * Messages a user reads, in gatelab's words:
 *
 * - every required field of the data contract (gate.json, manifest.json,
 *   trace and assignment lines; found by walking the zod schemas) has a
 *   purpose, and a document missing it gets exactly one issue at that field
 *   saying `missing: <what it is for>`;
 * - no message of a bad input carries zod's phrasing: every field of the
 *   demo's documents is removed, given a value of each wrong kind, and the
 *   messages of the contract, output and held-out plan checks and of
 *   `gate validate` on a broken copy of the demo gate are all searched;
 * - a checkpoint folder holding exactly one gate directory is answered with
 *   "did you mean <dir>/gate-a?", and one holding several lists them.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { GatePlanSchema } from "../lib/contract/gate.ts";
import { RunManifestSchema } from "../lib/contract/manifest.ts";
import { TraceLineSchema } from "../lib/contract/trace.ts";
import { AssignmentLineSchema } from "../lib/contract/assignment.ts";
import { parseWithSchema } from "../lib/contract/schema_issues.ts";
import { FIELD_PURPOSES } from "../lib/contract/purposes.ts";
import { checkOutput } from "../lib/contract/outputs/read_output.ts";
import { SelectionSchema } from "../lib/contract/outputs/selection.ts";
import { parseHeldoutPlan } from "../lib/heldout/heldout.ts";
import { main } from "../lib/cli/main.ts";
import { tempDir } from "./fixtures.ts";

const DEMO = fileURLToPath(new URL("../data/demo/ckpt-a/", import.meta.url));
const firstLine = (file: string) => JSON.parse(Deno.readTextFileSync(file).split("\n")[0]!);

/** The contract's documents: schema, file name, and a valid value from the demo. */
const DOCUMENTS: [string, z.ZodType, unknown][] = [
  ["gate.json", GatePlanSchema, JSON.parse(Deno.readTextFileSync(`${DEMO}gate-a/gate.json`))],
  [
    "manifest.json",
    RunManifestSchema,
    JSON.parse(Deno.readTextFileSync(`${DEMO}bare-val/manifest.json`)),
  ],
  ["traces.jsonl", TraceLineSchema, firstLine(`${DEMO}gate-a/traces.jsonl`)],
  ["assignments.jsonl", AssignmentLineSchema, firstLine(`${DEMO}gate-a/assignments.jsonl`)],
];

/** zod's own phrasings (v4 and v3), which no message may carry. */
const ZOD_PHRASES = [
  /expected \w+, received/i,
  /invalid input/i,
  /invalid (option|enum value|literal value|type)/i,
  /too (small|big):/i,
  /received undefined/i,
  /expected (string|number|int|boolean|object|array)\b(?!;)/i,
  /(string|number|array) must (contain|be)/i,
];

function zodPhrasing(messages: readonly string[]): string[] {
  return messages.filter((m) => ZOD_PHRASES.some((re) => re.test(m)));
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}
const def = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Dotted paths (arrays as `*`) of every field that may not be left out. */
function requiredFields(schema: z.ZodType, prefix = ""): string[] {
  const d = def(schema);
  if (d.type === "optional" || d.type === "nullable") return requiredFields(d.innerType!, prefix);
  if (d.type === "pipe") return requiredFields(d.in!, prefix);
  if (d.type === "array") return requiredFields(d.element!, `${prefix}*.`);
  if (d.type !== "object") return [];
  const out: string[] = [];
  for (const [key, field] of Object.entries(d.shape!)) {
    if (field.safeParse(undefined).success) continue; // optional
    out.push(`${prefix}${key}`, ...requiredFields(field, `${prefix}${key}.`));
  }
  return out;
}

/** A deep copy of `value` without the field at `path` (`*` = position 0). */
function without(value: unknown, path: string): { copy: unknown; at: (string | number)[] } {
  const copy = structuredClone(value);
  const at = path.split(".").map((p) => (p === "*" ? 0 : p));
  let parent = copy as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  delete parent[at.at(-1)!];
  return { copy, at };
}

Deno.test("every required field of the contract says what it is for when it is missing", () => {
  let fields = 0;
  for (const [file, schema, valid] of DOCUMENTS) {
    ok(parseWithSchema(schema, valid, { file }).ok, `the demo's ${file} is valid`);
    const purposes = FIELD_PURPOSES.get(schema)!;
    const required = requiredFields(schema);
    ok(required.length >= 4, `${file} has required fields`);
    for (const field of required) {
      fields++;
      const purpose = purposes[field];
      ok(purpose !== undefined && purpose.length > 20, `${file} ${field} has a purpose`);
      const { copy, at } = without(valid, field);
      const r = parseWithSchema(schema, copy, { file });
      deepEqual(
        r.ok ? [] : r.issues.map((i) => [i.path, i.message]),
        [[at.join("."), `missing: ${purpose}`]],
        `${file} without ${field}`,
      );
    }
    // No purpose names a field the schema does not require (a renamed field).
    const key = (p: string) => p.replaceAll(/\.\*/g, ".*");
    deepEqual(Object.keys(purposes).filter((p) => !required.map(key).includes(p)), [], file);
  }
  ok(fields >= 40, `${fields} required fields`);
});

/** Every field of `value`, given each kind of wrong value in turn (and removed). */
function* mutations(value: unknown, path: (string | number)[] = []): Generator<unknown> {
  if (value === null || typeof value !== "object") return;
  const entries = Array.isArray(value)
    ? value.slice(0, 2).map((v, i) => [i, v] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    for (const wrong of [undefined, null, 42, 0.5, -3, "", "zzz", true, [], {}, [1], { x: 1 }]) {
      if (Object.is(wrong, child)) continue;
      const root = { value: structuredClone(value) };
      const target = root.value as Record<string | number, unknown>;
      if (wrong === undefined) delete target[key];
      else target[key] = wrong;
      yield { path: [...path, key], value: root.value };
    }
    yield* mutations(child, [...path, key]);
  }
}

/** `value` with the mutated subtree put back at `path`. */
function graft(root: unknown, path: (string | number)[], sub: unknown): unknown {
  if (path.length === 0) return sub;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = sub;
  return copy;
}

Deno.test("no message of a bad input carries zod's phrasing", async () => {
  const messages: string[] = [];
  for (const [file, schema, valid] of DOCUMENTS) {
    for (const m of mutations(valid)) {
      const { path, value } = m as { path: (string | number)[]; value: unknown };
      const broken = graft(valid, path.slice(0, -1), value);
      const r = parseWithSchema(schema, broken, { file, line: 1 });
      if (!r.ok) messages.push(...r.issues.map((i) => `${file} ${i.path}: ${i.message}`));
    }
  }
  const planDoc = JSON.parse(
    Deno.readTextFileSync(new URL("../data/plans/heldout-kfold5.json", import.meta.url)),
  );
  for (const value of [{}, { format: "x" }, { format: "gatelab.selection/v1", metric: 5 }]) {
    const r = checkOutput(SelectionSchema, value, "selection.json");
    if (!r.ok) messages.push(...r.issues.map((i) => i.message));
  }
  for (const m of mutations(planDoc)) {
    const { value } = m as { value: unknown };
    messages.push(...parseHeldoutPlan(value, "plan.json").issues.map((i) => i.message));
  }
  ok(messages.length > 500, `${messages.length} messages`);
  deepEqual(zodPhrasing(messages), []);
  // The phrases are the ones zod writes (so the search can fail).
  const zod = TraceLineSchema.safeParse({});
  ok(!zod.success && zodPhrasing(zod.error.issues.map((i) => i.message)).length > 0);

  // The command line on a demo gate whose four files are each broken.
  await using tmp = await tempDir();
  for (const name of ["gate-a", "bare-val"]) {
    await Deno.mkdir(join(tmp.path, name));
    for (const e of Deno.readDirSync(join(DEMO, name))) {
      await Deno.copyFile(join(DEMO, name, e.name), join(tmp.path, name, e.name));
    }
  }
  const gate = join(tmp.path, "gate-a");
  const plan = JSON.parse(await Deno.readTextFile(join(gate, "gate.json")));
  delete plan.bare_run_dir;
  plan.stage = "warm";
  plan.slots[0].versions[0].role = 3;
  await Deno.writeTextFile(join(gate, "gate.json"), JSON.stringify(plan));
  const lines = (await Deno.readTextFile(join(gate, "assignments.jsonl"))).split("\n");
  lines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), sample_id: -1, slots: 5 });
  await Deno.writeTextFile(join(gate, "assignments.jsonl"), lines.join("\n"));
  const out: string[] = [];
  const { log, error } = console;
  console.log = console.error = (...a: unknown[]) => out.push(a.join(" "));
  let code;
  try {
    code = await main(["validate", gate, "--out", join(tmp.path, "v")]);
  } finally {
    console.log = log;
    console.error = error;
  }
  equal(code, 2);
  deepEqual(out.filter((l) => l.startsWith("schema_error")).map((l) => l.split("  ")[2]), [
    'must be one of "cold_start", "online"; got "warm"',
    "missing: the bare run this gate is paired with: its directory, relative to the gate directory",
    'must be one of "current", "add", "old", "new"; got the integer 3',
    "must be at least 0; got the integer -1",
    "must be an object; got the integer 5",
  ]);
  deepEqual(zodPhrasing(out), []);
});

Deno.test("a checkpoint folder holding gate directories: did you mean, or the list", async () => {
  const run = async (args: string[]) => {
    const err: string[] = [];
    const { log, error } = console;
    console.log = () => {};
    console.error = (...a: unknown[]) => err.push(a.join(" "));
    try {
      return { code: await main(args), err };
    } finally {
      console.log = log;
      console.error = error;
    }
  };
  await using tmp = await tempDir();
  for (const command of ["validate", "analyze", "sequential"]) {
    const one = await run([command, DEMO, "--out", join(tmp.path, command)]);
    equal(one.code, 2, command);
    deepEqual(one.err, [
      `usage_error  ${DEMO} holds no gate.json; did you mean ${join(DEMO, "gate-a")}?`,
    ], command);
  }
  const ckptB = fileURLToPath(new URL("../data/demo/ckpt-b", import.meta.url));
  const several = await run(["analyze", ckptB, "--out", join(tmp.path, "b")]);
  equal(several.code, 2);
  match(
    several.err[0]!,
    /holds no gate\.json; it holds 2 gate directories: \S+gate-online-r1, \S+gate-online-r2 \(give one, or several rounds sharing one bare run\)$/,
  );
  deepEqual([...Deno.readDirSync(tmp.path)], [], "nothing written");
});
