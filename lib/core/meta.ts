import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "./sha256.ts";

/** Release of gatelab; {@linkcode codeVersion} adds which code it is. */
export const GATELAB_VERSION = "0.1.0";

/**
 * The `generator` block every output file carries, so a reader can tell
 * which tool, which code ({@linkcode codeVersion}) and which command made
 * it. No timestamps: outputs are deterministic.
 *
 * @example
 * ```ts
 * import { generatorMeta } from "./meta.ts";
 * import { equal, match } from "node:assert/strict";
 * const g = generatorMeta("gate validate g --out o");
 * equal(g.tool, "gatelab");
 * match(g.version, /^0\.1\.0\+(git\.[0-9a-f]{12}\.)?lib\.[0-9a-f]{12}$/);
 * ```
 */
export function generatorMeta(command: string): { tool: string; version: string; command: string } {
  return { tool: "gatelab", version: codeVersion(), command };
}

let cached: string | undefined;
const DOT_GIT = ".git";

/**
 * The version written as `generator.version`: the release, then the code
 * that ran, as semver build metadata:
 *
 * - `git.<commit>`: the first 12 hex digits of the commit checked out, when
 *   gatelab runs from a git checkout (read from the `.git` files: HEAD, the
 *   ref it names, packed-refs; worktrees too; no `git` subprocess);
 * - `lib.<hash>`: the first 12 hex digits of a sha256 over every `lib/**.ts`
 *   file (its path relative to `lib/`, a NUL, its bytes, a NUL; paths in
 *   sorted order), which names the exact code even with uncommitted edits.
 *
 * Either part is left out when it cannot be read (no checkout; no read
 * permission for `lib/` or `.git`); `0.1.0` alone then. Computed once.
 *
 * @example
 * ```ts
 * import { codeVersion } from "./meta.ts";
 * import { match } from "node:assert/strict";
 * match(codeVersion(), /^0\.1\.0(\+.*)?$/);
 * ```
 */
export function codeVersion(): string {
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  const root = projectRoot();
  if (root !== null) {
    const commit = gitCommit(root);
    if (commit !== null) parts.push(`git.${commit.slice(0, 12)}`);
    const lib = libHash(join(root, "lib"));
    if (lib !== null) parts.push(`lib.${lib.slice(0, 12)}`);
  }
  cached = parts.length > 0 ? `${GATELAB_VERSION}+${parts.join(".")}` : GATELAB_VERSION;
  return cached;
}

/** The directory holding lib/, when this module is a local file. */
function projectRoot(): string | null {
  const url = new URL("../../", import.meta.url);
  return url.protocol === "file:" ? fileURLToPath(url) : null;
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The commit HEAD names in the checkout at `root`, from the files git keeps:
 * `.git` (a directory, or a file `gitdir: <dir>` in a worktree), `HEAD`
 * (`ref: refs/heads/<b>` or a detached commit), the ref file or
 * `packed-refs` (in the common directory of a worktree). Null when any of
 * it cannot be read.
 *
 * @example A worktree-style checkout
 * ```ts
 * import { gitCommit } from "./meta.ts";
 * import { equal } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * const common = `${root}/main.git`, wt = `${common}/worktrees/w`;
 * await Deno.mkdir(wt, { recursive: true });
 * await Deno.writeTextFile(`${root}/.git`, `gitdir: ${wt}\n`);
 * await Deno.writeTextFile(`${wt}/HEAD`, "ref: refs/heads/h\n");
 * await Deno.writeTextFile(`${wt}/commondir`, "../..\n");
 * await Deno.writeTextFile(`${common}/packed-refs`, `# pack-refs\n${"ab".repeat(20)} refs/heads/h\n`);
 * equal(gitCommit(root), "ab".repeat(20));
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function gitCommit(root: string): string | null {
  const dotGit = join(root, DOT_GIT);
  let gitDir: string;
  try {
    if (Deno.statSync(dotGit).isDirectory) gitDir = dotGit;
    else {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "");
      if (!m) return null;
      gitDir = resolve(root, m[1]!);
    }
  } catch {
    return null;
  }
  const commonText = readText(join(gitDir, "commondir"));
  const common = commonText === null ? gitDir : resolve(gitDir, commonText.trim());
  const head = readText(join(gitDir, "HEAD"))?.trim();
  if (head === undefined) return null;
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (ref === undefined) return null;
  for (const dir of [gitDir, common]) {
    const loose = readText(join(dir, ref))?.trim();
    if (loose !== undefined && /^[0-9a-f]{40}$/.test(loose)) return loose;
  }
  const packed = readText(join(common, "packed-refs")) ?? "";
  for (const line of packed.split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref && sha !== undefined && /^[0-9a-f]{40}$/.test(sha)) return sha;
  }
  return null;
}

/** sha256 over lib's .ts files (relative path, NUL, bytes, NUL; sorted), or null. */
function libHash(lib: string): string | null {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of Deno.readDirSync(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) walk(path);
      else if (e.isFile && e.name.endsWith(".ts")) files.push(path);
    }
  };
  try {
    walk(lib);
    const nul = new Uint8Array([0]);
    const chunks: Uint8Array[] = [];
    const encoder = new TextEncoder();
    for (const path of files.map((f) => relative(lib, f).split("\\").join("/")).sort()) {
      chunks.push(encoder.encode(path), nul, Deno.readFileSync(join(lib, path)), nul);
    }
    return sha256Hex(...chunks);
  } catch {
    return null;
  }
}
