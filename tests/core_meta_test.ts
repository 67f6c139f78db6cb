/**
 * generator.version names the code (lib/core/meta.ts): the commit read from
 * the `.git` files in the layouts git writes, and the lib/ content hash,
 * recomputed here with WebCrypto (an independent SHA-256) over the layout
 * the docs define: relative path, NUL, bytes, NUL, in sorted path order.
 */
import { equal, match } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { codeVersion, gitCommit } from "../lib/core/meta.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

Deno.test("gitCommit: a plain checkout with a loose ref, a detached HEAD, no checkout", async () => {
  const root = await Deno.makeTempDir();
  try {
    equal(gitCommit(root), null);
    await Deno.mkdir(join(root, ".git", "refs", "heads"), { recursive: true });
    await Deno.writeTextFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    equal(gitCommit(root), null); // the branch has no commit yet
    await Deno.writeTextFile(join(root, ".git", "refs", "heads", "main"), `${"1".repeat(40)}\n`);
    equal(gitCommit(root), "1".repeat(40));
    // A loose ref wins over packed-refs (git updates the loose file).
    await Deno.writeTextFile(
      join(root, ".git", "packed-refs"),
      `${"2".repeat(40)} refs/heads/main\n`,
    );
    equal(gitCommit(root), "1".repeat(40));
    await Deno.writeTextFile(join(root, ".git", "HEAD"), `${"3".repeat(40)}\n`);
    equal(gitCommit(root), "3".repeat(40));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("codeVersion: the release, this checkout's commit and the lib/ hash", async () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(join(dir, e.name));
      else if (e.name.endsWith(".ts")) files.push(relative(join(ROOT, "lib"), join(dir, e.name)));
    }
  };
  walk(join(ROOT, "lib"));
  const parts: Uint8Array[] = [];
  for (const f of files.sort()) {
    parts.push(new TextEncoder().encode(f), new Uint8Array([0]));
    parts.push(Deno.readFileSync(join(ROOT, "lib", f)), new Uint8Array([0]));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const commit = gitCommit(ROOT);
  const expected = `0.1.0+${commit ? `git.${commit.slice(0, 12)}.` : ""}lib.${hex.slice(0, 12)}`;
  equal(codeVersion(), expected);
  match(codeVersion(), /^0\.1\.0\+(git\.[0-9a-f]{12}\.)?lib\.[0-9a-f]{12}$/);
});
