/**
 * Hostile inspect_ai archives through the real CLI (`gate import inspect`),
 * with the process's peak memory measured (tests/peak_rss.ts): zip bombs
 * (an unread 3 GiB entry, a sample entry declaring 3 GiB, one declaring
 * 1,000 bytes and inflating to 3 GiB, deflated and Zstandard, 40 overlapping entries of 256 MiB
 * each from a 272 KB file), two headers, two different records of one
 * sample (under one entry name or two), an encrypted entry, a bad
 * CRC, forged sizes (4 GiB, saturated without zip64, zip64 fields that lie,
 * a zip64 end record outside the file, local and central headers that
 * disagree, a wrong entry count). Every archive is built here at test time
 * (tests/zip_writer.ts); none is committed. Each hostile one is exit 2 with
 * one issue line naming the file (and the entry), nothing in --out, and a
 * peak RSS far below what inflating it would take. Then a `.json` log and a
 * `.eval` log larger than --max-entry-bytes are read part by part within it,
 * and a sample past it is refused naming the limit.
 *
 * Needs `deno`.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { exists, gate, ROOT, tempDir } from "./import_gate.ts";
import { gateMeasured } from "./peak_rss.ts";
import { type Json, toyLog, writeLog } from "./inspect_logs.ts";
import {
  deflated,
  overlappingZip,
  type RawEntry,
  rawZip,
  zeroDeflate,
  zeroZstd,
  zstded,
} from "./zip_writer.ts";

const GiB = 1024 ** 3, MiB = 1024 ** 2;
/** Far above the CLI's own ~100 MB and far below any of these archives inflated (>= 3 GiB). */
const MEMORY_BOUND = 600 * MiB;

function entries(log: { header: Json; samples: Json[] }): RawEntry[] {
  return [
    deflated("header.json", JSON.stringify(log.header)),
    ...log.samples.map((s) => deflated(`samples/${s.id}_epoch_${s.epoch}.json`, JSON.stringify(s))),
  ];
}

Deno.test("import inspect: hostile archives are refused in one line with bounded memory", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  const doc = await Deno.readTextFile(join(ROOT, "docs", "import.md"));
  const masked = toyLog("masked");
  await writeLog(t, "bare.eval", toyLog("bare"));
  const honest = entries(masked);
  const third = (change: (e: RawEntry) => RawEntry) =>
    honest.map((e, k) => (k === 3 ? change(e) : e));
  const zeros3 = zeroDeflate(3 * GiB);
  const otherModel = structuredClone(masked.header);
  otherModel.eval.model = "another-model";
  const otherScore = structuredClone(masked.samples[0]!);
  otherScore.scores.match.value = 0.99;
  const sample0 = `samples/${otherScore.id}_epoch_1.json`;
  const cases: { name: string; bytes: Uint8Array; line: RegExp }[] = [
    {
      name: "sample-3g",
      bytes: rawZip([...honest, {
        name: "samples/big_epoch_1.json",
        data: zeros3,
        method: 8,
        crc: 0,
        size: 3 * GiB,
      }]),
      line:
        /^parse_error {2}sample-3g\.eval samples\/big_epoch_1\.json {2}cannot read the \.eval log's entry samples\/big_epoch_1\.json is 3221225472 bytes uncompressed, past the limit of 268435456 bytes \(--max-entry-bytes\)$/,
    },
    {
      name: "sample-forged",
      bytes: rawZip([...honest, {
        name: "samples/big_epoch_1.json",
        data: zeros3,
        method: 8,
        crc: 0,
        size: 1000,
      }]),
      line: /entry samples\/big_epoch_1\.json inflates past its declared size of 1000 bytes/,
    },
    {
      name: "zstd-forged",
      bytes: rawZip([...honest, {
        name: "samples/big_epoch_1.json",
        data: zeroZstd(3 * GiB),
        method: 93,
        crc: 0,
        size: 1000,
      }]),
      line: /entry samples\/big_epoch_1\.json inflates past its declared size of 1000 bytes/,
    },
    {
      name: "method",
      bytes: rawZip(third((e) => ({ ...e, method: 12 as 8 }))),
      line:
        /entry samples\/t002_epoch_1\.json uses compression method 12; gatelab reads stored \(0\), deflated \(8\) and Zstandard \(93\) entries$/,
    },
    {
      name: "overlap",
      bytes: overlappingZip(
        Array.from({ length: 40 }, (_, k) => `samples/o${k}_epoch_1.json`),
        256 * MiB,
        zeroDeflate(256 * MiB),
        honest,
      ),
      line:
        /^parse_error {2}overlap\.eval {2}cannot read as an inspect_ai \.eval log: the file has overlapping entries samples\/o0_epoch_1\.json and samples\/o1_epoch_1\.json/,
    },
    {
      name: "two-headers",
      bytes: rawZip([...honest, deflated("header.json", JSON.stringify(otherModel))]),
      line:
        /^parse_error {2}two-headers\.eval header\.json {2}the \.eval log holds 2 entries named header\.json; inspect_ai writes one .*: gatelab refuses rather than choose one$/,
    },
    {
      name: "two-samples",
      bytes: rawZip([...honest, deflated(sample0, JSON.stringify(otherScore))]),
      line:
        /^parse_error {2}two-samples\.eval:21 id {2}sample t000 epoch 1 is in the log twice with different contents \(samples\/t000_epoch_1\.json, sample 1 and samples\/t000_epoch_1\.json, sample 21\), and the earlier is not an errored run that the later re-ran: gatelab refuses rather than choose one$/,
    },
    {
      name: "two-names",
      bytes: rawZip([
        ...honest,
        deflated("samples/t000_epoch_1_copy.json", JSON.stringify(otherScore)),
      ]),
      line:
        /^parse_error {2}two-names\.eval:21 id {2}sample t000 epoch 1 is in the log twice with different contents \(samples\/t000_epoch_1\.json, sample 1 and samples\/t000_epoch_1_copy\.json, sample 21\)/,
    },
    {
      name: "encrypted",
      bytes: rawZip(third((e) => ({ ...e, flags: 0x0801 }))),
      line: /the file has an encrypted entry samples\/t002_epoch_1\.json;/,
    },
    {
      name: "bad-crc",
      bytes: rawZip(third((e) => ({ ...e, crc: (e.crc! ^ 1) >>> 0 }))),
      line:
        /^parse_error {2}bad-crc\.eval samples\/t002_epoch_1\.json {2}.*has CRC-32 [0-9a-f]{8}, the archive says [0-9a-f]{8} \(corrupt or altered\)$/,
    },
    {
      name: "forged-4g",
      bytes: rawZip(third((e) => ({ ...e, size: 4 * GiB - 2 }))),
      line: /is 4294967294 bytes uncompressed, past the limit of 268435456 bytes/,
    },
    {
      name: "forged-saturated",
      bytes: rawZip(third((e) => ({ ...e, size: 4 * GiB - 1 }))),
      line: /has a saturated uncompressed size but no zip64 field holding it$/,
    },
    {
      name: "zip64-size",
      bytes: rawZip(
        third((e) => ({ ...e, zip64: { size: 5 * GiB, compressedSize: e.data.length } })),
      ),
      line: /is 5368709120 bytes uncompressed, past the limit/,
    },
    {
      name: "zip64-compressed",
      bytes: rawZip(third((e) => ({ ...e, zip64: { size: e.size!, compressedSize: 4 * GiB } }))),
      line: /whose 4294967296 compressed bytes run past the entries into the central directory/,
    },
    {
      name: "zip64-end-record",
      bytes: rawZip(honest, { zip64: { recordOffset: 2 ** 40 } }),
      line: /has a zip64 end record outside the archive \(forged\)$/,
    },
    {
      name: "local-differs",
      bytes: rawZip(third((e) => ({
        ...e,
        localSizes: { size: e.size! + 1, compressedSize: e.data.length },
      }))),
      line: /whose local header and central directory disagree on its sizes or CRC \(forged\)$/,
    },
    {
      name: "count",
      bytes: rawZip(honest, { count: 5 }),
      line: /in its central directory after its 5 entries$/,
    },
  ];
  for (const c of cases) {
    await Deno.writeFile(join(t, `${c.name}.eval`), c.bytes);
    const out = `out-${c.name}`;
    const ran = await gateMeasured(t, [
      "import",
      "inspect",
      "--bare",
      "bare.eval",
      "--masked",
      `${c.name}.eval`,
      "--out",
      out,
    ]);
    equal(ran.code, 2, `${c.name}: ${ran.stderr}`);
    const lines = ran.stderr.trimEnd().split("\n");
    equal(lines.length, 2, `${c.name}: one issue line and the summary\n${ran.stderr}`);
    match(lines[0]!, c.line, c.name);
    if (c.name === "sample-3g") {
      ok(doc.includes(`\n${lines[0]}\n`), "docs/import.md shows the line");
    }
    equal(lines[1], "not imported: 1 issue(s); nothing written");
    ok(!exists(join(t, out)), `${c.name}: nothing written`);
    if (ran.peakRss !== null) {
      ok(ran.peakRss < MEMORY_BOUND, `${c.name}: peak RSS ${ran.peakRss} bytes`);
    }
    await Deno.remove(join(t, `${c.name}.eval`));
  }

  // An entry gatelab never reads costs nothing, however large: imported, with low memory.
  await Deno.writeFile(
    join(t, "unread.eval"),
    rawZip([...honest, {
      name: "_journal/big.bin",
      data: zeros3,
      method: 8,
      crc: 0,
      size: 3 * GiB,
    }]),
  );
  // A zip64 end record that tells the truth is read as well; and Zstandard entries, as
  // inspect_ai writes them, in one frame or several.
  await Deno.writeFile(join(t, "zip64.eval"), rawZip(honest, { zip64: {} }));
  const zstdEntries = (frames: number) => [
    zstded("header.json", JSON.stringify(masked.header), frames),
    ...masked.samples.map((s) => zstded(`samples/${s.id}_epoch_1.json`, JSON.stringify(s), frames)),
  ];
  await Deno.writeFile(join(t, "zstd.eval"), rawZip(zstdEntries(1)));
  await Deno.writeFile(join(t, "zstd-frames.eval"), rawZip(zstdEntries(3)));
  const gateTraces: Record<string, string> = {};
  for (const name of ["unread", "zip64", "zstd", "zstd-frames"]) {
    const ran = await gateMeasured(t, [
      "import",
      "inspect",
      "--bare",
      "bare.eval",
      "--masked",
      `${name}.eval`,
      "--out",
      `ok-${name}`,
    ]);
    equal(ran.code, 0, ran.stderr);
    if (ran.peakRss !== null) ok(ran.peakRss < MEMORY_BOUND, `${name}: peak RSS ${ran.peakRss}`);
    const validated = await gate(t, ["validate", `ok-${name}`, "--out", `v-${name}`]);
    equal(validated.code, 0, validated.stdout);
    const doc = JSON.parse(await Deno.readTextFile(join(t, `ok-${name}`, "import.json")));
    gateTraces[name] = await Deno.readTextFile(
      join(t, `ok-${name}`, doc.gates[0].dir, "traces.jsonl"),
    );
  }
  // The same samples, however compressed: the same gate.
  equal(gateTraces["zstd"], gateTraces["unread"]);
  equal(gateTraces["zstd-frames"], gateTraces["unread"]);
});

Deno.test("import inspect: logs larger than --max-entry-bytes are read part by part; a larger part is refused", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  // 200 samples of about 33 KB each: logs of about 6.6 MB, read with parts of at most 100 KiB.
  const padded = (arm: "bare" | "masked") =>
    toyLog(arm, {
      tasks: 200,
      sample: (s, k) => {
        s.messages = [{ role: "user", content: `task ${k} `.repeat(4000) }];
      },
    });
  for (const ext of ["json", "eval"]) {
    await writeLog(t, `bare.${ext}`, padded("bare"));
    await writeLog(t, `masked.${ext}`, padded("masked"));
    if (ext === "json") ok((await Deno.stat(join(t, "bare.json"))).size > 5 * MiB);
    const args = ["import", "inspect", "--bare", `bare.${ext}`, "--masked", `masked.${ext}`];
    const ran = await gateMeasured(t, [
      ...args,
      "--max-entry-bytes",
      "100KiB",
      "--out",
      `o-${ext}`,
    ]);
    equal(ran.code, 0, ran.stderr);
    // One sample past the limit: refused, naming the limit (not a decoding error).
    const big = padded("masked");
    big.samples[7]!.messages[0].content = "x".repeat(200 * 1024);
    await writeLog(t, `big.${ext}`, big);
    const refused = await gate(t, [
      "import",
      "inspect",
      "--bare",
      `bare.${ext}`,
      "--masked",
      `big.${ext}`,
      "--max-entry-bytes",
      "100KiB",
      "--out",
      `big-${ext}`,
    ]);
    equal(refused.code, 2, refused.stderr);
    match(
      refused.stderr.split("\n")[0]!,
      ext === "json"
        ? /^parse_error {2}big\.json {2}the log holds element 7 of "samples" \(from byte \d+\) of more than 102400 bytes, past the limit \(--max-entry-bytes\)$/
        : /^parse_error {2}big\.eval samples\/t007_epoch_1\.json {2}cannot read the \.eval log's entry samples\/t007_epoch_1\.json is \d+ bytes uncompressed, past the limit of 102400 bytes \(--max-entry-bytes\)$/,
    );
    ok(!exists(join(t, `big-${ext}`)));
  }
  const bad = await gate(t, [
    "import",
    "inspect",
    "--bare",
    "bare.json",
    "--masked",
    "masked.json",
    "--max-entry-bytes",
    "lots",
    "--out",
    "x",
  ]);
  equal(bad.code, 2);
  match(bad.stderr, /^usage_error {2}--max-entry-bytes lots is not a size;/);
});
