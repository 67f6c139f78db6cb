/**
 * duckdb-wasm is fetched and loaded only when SQL runs. Deno installs, at
 * the start of any program, every npm package its module graph names
 * (literal dynamic imports included) and every package of the import map,
 * so neither may name duckdb-wasm: then `gate --help`, `gate validate` and
 * every other command start without it (on a fresh machine without
 * downloading its 138 MB). Checked on the module graph of the CLI's entry
 * as `deno info --json` reports it, which holds every command module
 * (main.ts imports each with a literal dynamic import).
 */
import { deepEqual, ok } from "node:assert/strict";
import { ignoreWithout } from "./ci_tools.ts";

Deno.test({
  name: "the CLI's module graph (every command, --help, validate) does not name duckdb-wasm",
  ignore: ignoreWithout("deno", "duckdb-wasm lazy loading"),
  async fn() {
    const o = await new Deno.Command("deno", {
      args: ["info", "--json", "lib/cli/main.ts"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    deepEqual(o.code, 0, new TextDecoder().decode(o.stderr));
    const info = JSON.parse(new TextDecoder().decode(o.stdout));
    const modules: { specifier: string; dependencies?: { specifier: string }[] }[] = info.modules;
    const specifiers = modules.map((m) => m.specifier);
    // The graph really holds the commands and the SQL engine module (so the check can fail).
    for (
      const m of [
        "lib/cli/validate.ts",
        "lib/cli/sql.ts",
        "lib/sql/engine.ts",
        "lib/core/sql_database.ts",
      ]
    ) {
      ok(specifiers.some((s) => s.endsWith(m)), m);
    }
    ok(specifiers.some((s) => s.includes("apache-arrow")), "npm packages are listed");
    const naming = modules.flatMap((m) =>
      (m.dependencies ?? []).filter((d) => d.specifier.includes("duckdb")).map((d) =>
        `${m.specifier} -> ${d.specifier}`
      )
    );
    deepEqual([specifiers.filter((s) => s.includes("duckdb")), naming], [[], []]);
    const config = JSON.parse(await Deno.readTextFile("deno.json"));
    deepEqual(Object.keys(config.imports).filter((k) => k.includes("duckdb")), []);
  },
});
