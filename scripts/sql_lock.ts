/**
 * Writes deno.sql.lock: deno.lock plus the packages of the SQL engine
 * (duckdb-wasm and its dependencies), for the commands that may start it.
 * They run with `--lock=deno.sql.lock --frozen`, so Deno never writes a
 * lock while gatelab runs, and with DENO_UNSTABLE_NPM_LAZY_CACHING=1, so
 * the engine's packages are fetched only when SQL first runs (docs/
 * validation.md, "The engine's lock"). Run after deno.lock changes:
 *
 *   deno run --allow-read --allow-write --allow-run=deno scripts/sql_lock.ts
 *
 * tests/sql_lock_test.ts fails while deno.sql.lock is out of date.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The engine's package, as lib/core/sql_database.ts names it. */
const ENGINE = "npm:@duckdb/duckdb-wasm@1.28.0/blocking";

type Lock = {
  version: string;
  specifiers: Record<string, string>;
  npm: Record<string, { dependencies?: string[]; [key: string]: unknown }>;
  [key: string]: unknown;
};

/** A package key's name: `@scope/pkg@1.0.0` -> `@scope/pkg`. */
const nameOf = (key: string) =>
  key.slice(0, key.indexOf("@", 1) === -1 ? undefined : key.indexOf("@", 1));

/**
 * deno.lock with the engine's packages added: every entry of deno.lock is
 * kept as it is (Deno's own resolution of both together would move shared
 * dependencies to other versions), the engine's entries that deno.lock
 * lacks are added, and a dependency named without its version (meaning
 * the one version in its lock) gets the version once the merged lock holds
 * two.
 */
function merged(base: Lock, engine: Lock): Lock {
  const npm: Lock["npm"] = { ...base.npm };
  for (const [key, entry] of Object.entries(engine.npm)) npm[key] ??= entry;
  const versions = new Map<string, number>();
  for (const key of Object.keys(npm)) {
    versions.set(nameOf(key), (versions.get(nameOf(key)) ?? 0) + 1);
  }
  const qualify = (from: Lock) => (dependency: string) => {
    if (dependency.indexOf("@", 1) !== -1 || versions.get(dependency) === 1) return dependency;
    return Object.keys(from.npm).find((k) => nameOf(k) === dependency)!;
  };
  for (const [key, entry] of Object.entries(npm)) {
    if (entry.dependencies === undefined) continue;
    const from = key in base.npm ? base : engine;
    npm[key] = { ...entry, dependencies: entry.dependencies.map(qualify(from)) };
  }
  const sorted = Object.fromEntries(Object.entries(npm).sort(([a], [b]) => (a < b ? -1 : 1)));
  const specifiers = Object.fromEntries(
    Object.entries({ ...base.specifiers, ...engine.specifiers }).sort((
      [a],
      [b],
    ) => (a < b ? -1 : 1)),
  );
  return { ...base, specifiers, npm: sorted };
}

const work = await Deno.makeTempDir({ prefix: "gatelab-sql-lock-" });
try {
  const lock = join(work, "engine.lock");
  const entry = join(work, "engine.ts");
  await Deno.writeTextFile(entry, `import "${ENGINE}";\n`);
  const { code, stderr } = await new Deno.Command("deno", {
    args: ["install", "--entrypoint", "--no-config", `--lock=${lock}`, entry],
    cwd: work,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
  const base: Lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
  const engine: Lock = JSON.parse(await Deno.readTextFile(lock));
  await Deno.writeTextFile(
    join(ROOT, "deno.sql.lock"),
    JSON.stringify(merged(base, engine), null, 2) + "\n",
  );
  console.log("wrote deno.sql.lock");
} finally {
  await Deno.remove(work, { recursive: true });
}
