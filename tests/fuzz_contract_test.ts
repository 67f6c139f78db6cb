/**
 * Seeded fuzzing of the contract's input files (docs/FORMAT.md sections
 * 1-4): a small valid gate and its bare run, then per case one to three
 * mutations of its six files: bit flips, inserted bytes (NUL, 0xFF, a
 * byte-order mark, structure characters), truncations; JSON values swapped
 * for another type or for NaN, Infinity, -0, 1e-320, 1e400; a key
 * duplicated or renamed; a lone surrogate escape, a 10 kB task id; JSONL
 * lines duplicated, swapped or removed; a file emptied, or replaced by a
 * directory or a symbolic link (to another input, or dangling).
 *
 * Every case is validated in-process (`validateGates`), and every 25th
 * through the real CLI (`gate validate` or `gate analyze`, alternating,
 * over an --out holding an earlier result). Asserted:
 * - nothing throws in-process; the CLI exits 0 or 2 only, never 1;
 * - every issue has a known code and names a file, and prints as one line;
 *   on the CLI, every line before the summary is such a line;
 * - nothing is written outside --out and `<out>.failed` (the inputs and
 *   everything beside them are byte-identical afterwards);
 * - a failed analysis leaves the earlier result in --out untouched.
 *
 * Cases: 300 by default; set GATELAB_FUZZ_CASES for more (and
 * GATELAB_FUZZ_SEED for another sequence). A failure names the seed and
 * the case's mutations, so it can be replayed.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { createPrng, type Prng } from "../lib/math/prng.ts";
import { CONTRACT_CODES, EXTENSION_CODES, formatIssue } from "../lib/core/issue.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { writeGateFixture } from "./fixtures.ts";
import { gate, tree } from "./gate_process.ts";

const env = (name: string) =>
  Deno.permissions.querySync({ name: "env", variable: name }).state === "granted"
    ? Deno.env.get(name)
    : undefined;
const CASES = Number(env("GATELAB_FUZZ_CASES") ?? 300);
const SEED = Number(env("GATELAB_FUZZ_SEED") ?? 22);
const CLI_EVERY = 25;

const FILES = [
  "bare-val/manifest.json",
  "bare-val/traces.jsonl",
  "gate/gate.json",
  "gate/assignments.jsonl",
  "gate/manifest.json",
  "gate/traces.jsonl",
];
const CODES = new Set<string>([...CONTRACT_CODES, ...EXTENSION_CODES]);

/** One mutation of the files under `dir`, described for the failure message. */
type Mutation = (dir: string, prng: Prng) => Promise<string>;

const pick = <T>(prng: Prng, xs: readonly T[]): T => xs[prng.nextInt(xs.length)]!;
const enc = new TextEncoder(), dec = new TextDecoder();

async function editBytes(
  path: string,
  edit: (b: Uint8Array) => Uint8Array,
): Promise<void> {
  await Deno.writeFile(path, edit(await Deno.readFile(path)));
}

function splice(b: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at), 0);
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/** Lines of a text file, edited, written back. */
async function editLines(path: string, edit: (lines: string[]) => string[]): Promise<void> {
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, edit(text.split("\n")).join("\n"));
}

/** Every value path inside a JSON value: [key path, parent, key]. */
function slots(value: unknown): [string, Record<string, unknown> | unknown[], string | number][] {
  const out: [string, Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push([`${path}[${i}]`, v, i]);
        walk(x, `${path}[${i}]`);
      });
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        out.push([path ? `${path}.${k}` : k, v as Record<string, unknown>, k]);
        walk(x, path ? `${path}.${k}` : k);
      }
    }
  };
  walk(value, "");
  return out;
}

/** Replacement values; the strings marked RAW: are written as bare JSON tokens (not valid JSON). */
const SWAPS: unknown[] = [
  null,
  true,
  "x",
  0,
  "RAW:-0",
  "RAW:1e-320",
  "RAW:1e400",
  "RAW:NaN",
  "RAW:Infinity",
  "RAW:-Infinity",
  [],
  {},
  "t".repeat(10_000),
  'RAW:"\\ud800"',
  "\uFEFF",
  'RAW:"a\\u0000b"',
];

/** A JSON text (a whole file, or one JSONL line) with one value swapped. */
function swapValue(text: string, prng: Prng): [string, string] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const all = slots(value);
  if (all.length === 0) return null;
  const [path, parent, key] = pick(prng, all);
  const swap = pick(prng, SWAPS);
  const marker = `@@SWAP${prng.nextUint32()}@@`;
  (parent as Record<string | number, unknown>)[key] = marker;
  const raw = typeof swap === "string" && swap.startsWith("RAW:")
    ? swap.slice(4)
    : JSON.stringify(swap);
  return [
    JSON.stringify(value).replace(JSON.stringify(marker), raw),
    `${path}=${raw.slice(0, 20)}`,
  ];
}

const MUTATIONS: Record<string, Mutation> = {
  async flip(dir, prng) {
    const f = pick(prng, FILES);
    let at = 0, bit = 0;
    await editBytes(join(dir, f), (b) => {
      if (b.length === 0) return b;
      at = prng.nextInt(b.length), bit = prng.nextInt(8);
      b[at]! ^= 1 << bit;
      return b;
    });
    return `flip ${f}@${at}.${bit}`;
  },
  async insert(dir, prng) {
    const f = pick(prng, FILES);
    const palette = [[0], [0xff], [0xef, 0xbb, 0xbf], [0xc3], [0x7b], [0x22], [0x2c], [0x0a], [
      0xe3,
      0x80,
      0x80,
    ]];
    const bytes = new Uint8Array(pick(prng, palette));
    let at = 0;
    await editBytes(join(dir, f), (b) => splice(b, at = prng.nextInt(b.length + 1), 0, bytes));
    return `insert ${f}@${at} [${bytes.join(",")}]`;
  },
  async truncate(dir, prng) {
    const f = pick(prng, FILES);
    let at = 0;
    await editBytes(join(dir, f), (b) => b.subarray(0, at = prng.nextInt(b.length + 1)));
    return `truncate ${f}@${at}`;
  },
  async swap(dir, prng) {
    const f = pick(prng, FILES);
    let what = "nothing";
    if (f.endsWith(".jsonl")) {
      await editLines(join(dir, f), (lines) => {
        const i = prng.nextInt(lines.length);
        const r = swapValue(lines[i]!, prng);
        if (r) lines[i] = r[0], what = `line ${i + 1} ${r[1]}`;
        return lines;
      });
    } else {
      const r = swapValue(await Deno.readTextFile(join(dir, f)), prng);
      if (r) await Deno.writeTextFile(join(dir, f), r[0]), what = r[1];
    }
    return `swap ${f} ${what}`;
  },
  async duplicateKey(dir, prng) {
    const f = pick(prng, FILES);
    let key = "";
    await editBytes(join(dir, f), (b) => {
      const text = dec.decode(b);
      const keys = [...text.matchAll(/"([a-z_]+)":/g)];
      if (keys.length === 0) return b;
      const m = pick(prng, keys);
      key = m[1]!;
      return enc.encode(
        text.slice(0, m.index) + `"${key}": null, ` + text.slice(m.index),
      );
    });
    return `duplicate ${f} ${key}`;
  },
  async renameKey(dir, prng) {
    const f = pick(prng, FILES);
    let key = "";
    await editBytes(join(dir, f), (b) => {
      const text = dec.decode(b);
      const keys = [...text.matchAll(/"([a-z_]+)":/g)];
      if (keys.length === 0) return b;
      const m = pick(prng, keys);
      key = m[1]!;
      const all = prng.nextInt(2) === 0;
      return enc.encode(
        all
          ? text.replaceAll(`"${key}":`, `"${key}X":`)
          : text.slice(0, m.index) + `"${key}X":` + text.slice(m.index! + m[0].length),
      );
    });
    return `rename ${f} ${key}`;
  },
  async taskId(dir, prng) {
    const f = pick(prng, ["bare-val/traces.jsonl", "gate/traces.jsonl", "gate/assignments.jsonl"]);
    const id = pick(prng, [
      "\\ud800",
      "\\udfff",
      "\\uFEFF" + "t000",
      "t".repeat(10_000),
      "\\u0000",
      "",
      "\\u3000",
    ]);
    let line = 0;
    await editLines(join(dir, f), (lines) => {
      line = prng.nextInt(lines.length);
      lines[line] = lines[line]!.replace(/"task_id":"[^"]*"/, `"task_id":"${id}"`);
      return lines;
    });
    return `task_id ${f}:${line + 1} ${id.slice(0, 12)}`;
  },
  async lines(dir, prng) {
    const f = pick(prng, FILES.filter((x) => x.endsWith(".jsonl")));
    const op = pick(prng, ["duplicate", "swap", "remove", "blank"]);
    await editLines(join(dir, f), (lines) => {
      const i = prng.nextInt(lines.length), j = prng.nextInt(lines.length);
      if (op === "duplicate") lines.splice(i, 0, lines[i]!);
      else if (op === "swap") [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      else if (op === "remove") lines.splice(i, 1);
      else lines.splice(i, 0, pick(prng, ["", "  \t", "\uFEFF", "\u3000"]));
      return lines;
    });
    return `lines ${op} ${f}`;
  },
  async replace(dir, prng) {
    const f = pick(prng, FILES);
    const path = join(dir, f);
    const how = pick(prng, ["empty", "directory", "link", "dangling"]);
    await Deno.remove(path);
    if (how === "empty") await Deno.writeTextFile(path, "");
    else if (how === "directory") await Deno.mkdir(path);
    else if (how === "link") await Deno.symlink(join(dir, pick(prng, FILES)), path);
    else await Deno.symlink(join(dir, "no-such-file"), path);
    return `replace ${f} by ${how}`;
  },
};

/** Every entry under `dir` with its bytes (links by target), except the names skipped. */
function snapshot(dir: string, skip: ReadonlySet<string>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const rel = prefix + e.name;
    if (skip.has(rel)) continue;
    const path = join(dir, e.name);
    if (e.isSymlink) out[rel] = `-> ${Deno.readLinkSync(path)}`;
    else if (e.isDirectory) {
      out[`${rel}/`] = "dir";
      Object.assign(out, snapshot(path, skip, `${rel}/`));
    } else out[rel] = dec.decode(Deno.readFileSync(path));
  }
  return out;
}

/** An issue as the CLI prints it: `code  file[:line][ path][ [episode]]  message`, one line. */
const LINE =
  /^(?:[a-z_]+(?: \(warning\))? {2}(\S+?)(?::\d+)?(?: .*?)? {2}\S|[a-z_]+ {2}\d+ more [a-z_]+ issues not listed$)/;

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test(`fuzz: ${CASES} mutated gates (seed ${SEED}): exit 0 or 2, one line per issue naming a file, nothing outside --out`, async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "gatelab-fuzz-" }));
  try {
    const base = join(root, "base");
    await writeGateFixture(base, { tasks: 12, effects: { c1: 0.2 } });
    // An earlier analysis to put in every CLI case's --out.
    const earlier = await gate(root, [
      "analyze",
      "base/gate",
      "--out",
      "earlier",
      "--bootstrap",
      "0",
      "--quiet",
    ]);
    equal(earlier.code, 0, earlier.stderr);
    const names = Object.keys(MUTATIONS);
    const prng = createPrng(SEED);
    const codes = new Map<string, number>();
    let cli = 0, failedCli = 0;
    for (let c = 0; c < CASES; c++) {
      const dir = join(root, `case-${c}`);
      await copyTree(base, dir);
      const applied: string[] = [];
      for (let m = 1 + prng.nextInt(3); m > 0; m--) {
        const name = pick(prng, names);
        // A file an earlier mutation replaced (a directory, a dangling link) cannot be edited.
        applied.push(await MUTATIONS[name]!(dir, prng).catch(() => `${name} (file gone)`));
      }
      const where = `seed ${SEED} case ${c}: ${applied.join("; ")}`;
      const v = await validateGates([join(dir, "gate")]);
      for (const issue of v.issues) {
        ok(CODES.has(issue.code), `${where}: unknown code ${issue.code}`);
        // The one issue without a file: the count of those left out by the cap per code.
        const capped = /^\d+ more [a-z_]+ issues not listed$/.test(issue.message);
        ok(issue.file || capped, `${where}: no file in ${formatIssue(issue)}`);
        ok(!formatIssue(issue).includes("\n"), `${where}: ${formatIssue(issue)}`);
        codes.set(issue.code, (codes.get(issue.code) ?? 0) + 1);
      }
      if (c % CLI_EVERY === CLI_EVERY - 1) {
        cli++;
        const command = cli % 2 === 0 ? "validate" : "analyze";
        await copyTree(join(root, "earlier"), join(dir, "out")); // the marker too
        const before = snapshot(dir, new Set(["out", "out.failed"]));
        const outBefore = tree(join(dir, "out"));
        const ran = await gate(dir, [
          command,
          "gate",
          "--out",
          "out",
          ...(command === "analyze" ? ["--bootstrap", "20"] : []),
        ]);
        ok(
          ran.code === 0 || ran.code === 2,
          `${where}: ${command} exit ${ran.code}: ${ran.stderr}`,
        );
        const lines = ran.stdout.trim().split("\n");
        const summary = lines.pop()!;
        for (const line of lines) {
          ok(LINE.test(line), `${where}: ${command} printed ${JSON.stringify(line)}`);
        }
        for (const line of ran.stderr.trim().split("\n").filter((l) => l !== "")) {
          ok(LINE.test(line), `${where}: ${command} printed on stderr ${JSON.stringify(line)}`);
        }
        deepEqual(snapshot(dir, new Set(["out", "out.failed"])), before, `${where}: wrote outside`);
        if (ran.code === 2) {
          failedCli++;
          ok(/^not ok: \d+ issue\(s\)/.test(summary), `${where}: ${summary}`);
          if (command === "analyze") {
            deepEqual(tree(join(dir, "out")), outBefore, `${where}: the earlier result changed`);
            ok(
              tree(join(dir, "out.failed"))?.["validation.json"],
              `${where}: no report beside it`,
            );
          }
        }
      }
      await Deno.remove(dir, { recursive: true });
    }
    console.log(
      `fuzz: ${CASES} cases, ${cli} through the CLI (${failedCli} exit 2); issues by code: ${
        [...codes].sort().map(([k, n]) => `${k} ${n}`).join(", ")
      }`,
    );
    // The mutations reach the checks: most cases fail, in several ways.
    ok(codes.size >= 6, [...codes.keys()].join(", "));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
