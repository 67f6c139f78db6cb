/**
 * A released tool's files: LICENSE (MIT), CITATION.cff valid against the
 * Citation File Format 1.2.0 schema's rules for the keys it uses, and one
 * version shared by deno.json, CHANGELOG.md, CITATION.cff, the code
 * (GATELAB_VERSION) and `gate --version`, whose second line is the
 * generator.version every output records.
 *
 * The CFF checks are the schema's (https://citation-file-format.github.io,
 * schema.json of 1.2.0) restated in zod, offline: the required keys
 * (cff-version, message, title, authors), the top-level keys it allows
 * (additionalProperties: false), an author as a person or an entity, the
 * type enum, a date as YYYY-MM-DD and keywords as strings.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { z } from "zod";
import { main } from "../lib/cli/main.ts";
import { GATELAB_VERSION, generatorMeta } from "../lib/core/meta.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const read = (name: string) => Deno.readTextFileSync(`${ROOT}${name}`);

const nonEmpty = z.string().min(1);
const person = z.strictObject({
  "family-names": nonEmpty.optional(),
  "given-names": nonEmpty.optional(),
  "name-particle": nonEmpty.optional(),
  "name-suffix": nonEmpty.optional(),
  affiliation: nonEmpty.optional(),
  email: nonEmpty.optional(),
  orcid: z.string().regex(/^https:\/\/orcid\.org\/[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]$/)
    .optional(),
  website: z.url().optional(),
});
const entity = z.strictObject({
  name: nonEmpty,
  email: nonEmpty.optional(),
  website: z.url().optional(),
});
const date = z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/);
/** Citation File Format 1.2.0, the keys gatelab's file uses plus the other top-level keys allowed. */
const Cff = z.strictObject({
  "cff-version": z.literal("1.2.0"),
  message: nonEmpty,
  title: nonEmpty,
  authors: z.array(z.union([entity, person])).min(1),
  abstract: nonEmpty.optional(),
  type: z.enum(["software", "dataset"]).optional(),
  version: z.union([nonEmpty, z.number()]).optional(),
  license: z.union([nonEmpty, z.array(nonEmpty).min(1)]).optional(),
  keywords: z.array(nonEmpty).min(1).optional(),
  "date-released": date.optional(),
  commit: nonEmpty.optional(),
  contact: z.array(z.union([entity, person])).optional(),
  doi: z.string().regex(/^10\.\d{4,9}(\.\d+)?\/[A-Za-z0-9:/_;\-.()[\]\\]+$/).optional(),
  identifiers: z.array(z.object({ type: nonEmpty, value: nonEmpty })).optional(),
  "license-url": z.url().optional(),
  "preferred-citation": z.looseObject({}).optional(),
  references: z.array(z.looseObject({})).optional(),
  repository: z.url().optional(),
  "repository-artifact": z.url().optional(),
  "repository-code": z.url().optional(),
  url: z.url().optional(),
});

Deno.test("CITATION.cff is valid Citation File Format 1.2.0 and names the MIT licence", () => {
  const cff = Cff.parse(parse(read("CITATION.cff")));
  equal(cff.license, "MIT");
  deepEqual(cff.authors, [{ name: "the gatelab authors" }]);
  // The checks refuse what the schema refuses (so they can fail).
  equal(Cff.safeParse({ ...cff, "cff-version": "1.1.0" }).success, false);
  equal(Cff.safeParse({ ...cff, authors: [] }).success, false);
  equal(Cff.safeParse({ ...cff, author: cff.authors }).success, false);
  equal(Cff.safeParse({ ...cff, "date-released": "1 Dec 2026" }).success, false);
});

Deno.test("LICENSE is the MIT licence of the gatelab authors", () => {
  const text = read("LICENSE");
  match(text, /^MIT License\n\nCopyright \(c\) \d{4} the gatelab authors\n/);
  ok(text.includes('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND'));
});

Deno.test("one version: deno.json, CHANGELOG.md, CITATION.cff, the code and gate --version", async () => {
  const denoJson = JSON.parse(read("deno.json")).version;
  const changelog = /^## (\S+)/m.exec(read("CHANGELOG.md"))?.[1];
  const cff = String(parse(read("CITATION.cff")).version);
  const { log } = console;
  const lines: string[] = [];
  console.log = (...parts: unknown[]) => lines.push(...parts.join(" ").split("\n"));
  let code: number;
  try {
    code = await main(["--version"]);
  } finally {
    console.log = log;
  }
  equal(code, 0);
  deepEqual([changelog, cff, GATELAB_VERSION, lines[0]], [
    denoJson,
    denoJson,
    denoJson,
    `gatelab ${denoJson}`,
  ]);
  equal(lines[1], `code ${generatorMeta("x").version} (generator.version of outputs)`);
  match(
    lines[1]!,
    new RegExp(
      `^code ${denoJson.replaceAll(".", "\\.")}\\+(git\\.[0-9a-f]{12}\\.)?lib\\.[0-9a-f]{12} `,
    ),
  );
});
