/**
 * The library from any project: lib/ imports only relative modules, `node:`
 * built-ins and `npm:` packages with their version written out, so a file
 * outside the repository imports `<clone>/lib/mod.ts` without the
 * repository's import map. The guard reads every import of every lib/ file
 * (JSDoc examples included, users copy them); each `npm:` version must be the
 * one deno.json's import map gives the bare name, so tests and notebooks
 * that import the bare name get the same package, one module instance.
 *
 * Then the README's library example runs from a temporary directory with no
 * deno.json and from one with its own deno.json (whose import map sends
 * "zod" elsewhere), importing lib/mod.ts by path and by file: URL.
 *
 * Needs `deno` on PATH (the test task has --allow-run=deno).
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tempDir } from "./fixtures.ts";
import { Table as BareArrowTable } from "apache-arrow";
import { Table as LibArrowTable } from "npm:apache-arrow@17.0.0";
import { z as bareZod } from "zod";
import { z as libZod } from "npm:zod@4.6.7";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|import\.meta\.resolve\(\s*)(["'])([^"'\s]+)\1/g;

function libFiles(dir = join(ROOT, "lib")): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...libFiles(path));
    else if (e.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** `file: specifier  why` for every import in lib/ that needs the repository's import map. */
function bareImports(): string[] {
  const map: Record<string, string> = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")))
    .imports;
  const versions = new Map<string, string>();
  for (const target of Object.values(map)) {
    const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(target);
    if (m) versions.set(m[1]!, m[2]!);
  }
  const bad: string[] = [];
  for (const file of libFiles()) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[2]!;
      const where = `${relative(ROOT, file)}: ${spec}`;
      if (spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("node:")) continue;
      const npm = /^npm:((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(spec);
      if (!npm) {
        bad.push(`${where}  bare specifier: write npm:<package>@<version> (see deno.json imports)`);
      } else if (versions.get(npm[1]!) !== npm[2]) {
        bad.push(
          `${where}  deno.json imports has ${npm[1]} at ${
            versions.get(npm[1]!) ?? "no version"
          }: use the same version (one module instance)`,
        );
      }
    }
  }
  return bad;
}

Deno.test("lib/ imports no bare specifier, and its npm: versions are deno.json's", () => {
  deepEqual(bareImports(), []);
  // The bare name of a test and lib/'s written-out specifier are one module instance
  // (apache-arrow's classes are compared by identity, e.g. in duckdb-wasm's Arrow ingest).
  ok(BareArrowTable === LibArrowTable);
  ok(bareZod === libZod);
  // The scan sees every form of import (so the guard can fail).
  const sample = [
    `import { z } from "zod";`,
    `export * from "./x.ts";`,
    `const a = await import("apache-arrow");`,
    `import "npm:zod@4.6.7";`,
    `import.meta.resolve("@duckdb/duckdb-wasm/dist/x.wasm")`,
  ].join("\n");
  deepEqual([...sample.matchAll(SPECIFIER)].map((m) => m[2]), [
    "zod",
    "./x.ts",
    "apache-arrow",
    "npm:zod@4.6.7",
    "@duckdb/duckdb-wasm/dist/x.wasm",
  ]);
});

/** The README's library example with its import and data paths pointed into the clone. */
function readmeExample(importAs: string): string {
  const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
  const block = /```ts\n(import [^\n]+ from "\.\/lib\/mod\.ts";[\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error("README has no ```ts example importing ./lib/mod.ts");
  return block
    .replace(`"./lib/mod.ts"`, JSON.stringify(importAs))
    .replace(`"data/demo/`, JSON.stringify(join(ROOT, "data", "demo")).slice(0, -1) + "/");
}

async function runExample(dir: string, importAs: string): Promise<string> {
  await Deno.writeTextFile(join(dir, "example.ts"), readmeExample(importAs));
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: ["run", "--quiet", "--allow-read", "--allow-sys=cpus", "example.ts"],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  equal(code, 0, text(stderr));
  return text(stdout);
}

Deno.test("the README's library example runs from a project outside the clone", async () => {
  const mod = join(ROOT, "lib", "mod.ts");
  const outputs: string[] = [];
  await using bare = await tempDir();
  for (const importAs of [mod, pathToFileURL(mod).href]) {
    outputs.push(await runExample(bare.path, importAs));
  }
  await using own = await tempDir();
  // A project of its own whose map sends "zod" somewhere else: lib/ must not see it.
  await Deno.writeTextFile(
    join(own.path, "deno.json"),
    JSON.stringify({ imports: { zod: "./not-zod.ts" } }),
  );
  await Deno.writeTextFile(join(own.path, "not-zod.ts"), `export const z = "not zod";\n`);
  for (const importAs of [mod, pathToFileURL(mod).href]) {
    outputs.push(await runExample(own.path, importAs));
  }
  // The demo's Gate A: 10 of its 14 versions selected, 2000 draws (the example's).
  match(outputs[0]!, /^\[\n?(\s*"[a-z-]+\.v\d+",?\s*){10}\] 2000\n$/);
  for (const o of outputs) equal(o, outputs[0]);
});
