/**
 * A zip archive read from its central directory, one entry at a time, for
 * inspect_ai's `.eval` logs (docs/import.md, "Archives"). Nothing is read
 * that the caller does not ask for, so an entry gatelab never needs costs no
 * memory however large it claims or turns out to be. Every entry that is
 * read (stored, deflated, or Zstandard as inspect_ai writes it, in one or
 * more frames) is inflated as a stream and stopped at the limit; the structure is
 * checked before any entry is: one end record, a central directory that
 * matches it, entries whose data lie inside the archive without overlapping
 * one another, no encrypted entry, local headers that agree with the
 * directory. Entries of one name are all listed, in archive order: what two
 * of them mean is the caller's to decide (inspect_ai supersedes a sample by
 * writing it again).
 *
 * @module
 */
import { crc32 } from "node:zlib";

/** One entry of the central directory. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated, 93 Zstandard (others are refused when read). */
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  /** Where the entry's data start (after its local header). */
  readonly dataStart: number;
}

/** An open archive: its entries and a reader of one entry's bytes. */
export interface ZipArchive {
  readonly entries: readonly ZipEntry[];
  /**
   * The entry's bytes, inflated and checked: its declared size within
   * `maxEntryBytes`, the bytes it inflates to equal to that size, the CRC-32
   * equal to the directory's. Why not, otherwise (a sentence naming the
   * entry, to follow the file's name).
   */
  read(entry: ZipEntry): Promise<Uint8Array | string>;
  close(): void;
}

const EOCD = 0x06054b50, ZIP64_LOCATOR = 0x07064b50, ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50, LOCAL = 0x04034b50;
const U16 = 0xffff, U32 = 0xffffffff;
/** Compression method 93: Zstandard (inspect_ai's own choice for its logs). */
const ZSTD = 93;
/** Flag bits: 0 encrypted, 6 strong encryption, 13 central directory encrypted. */
const ENCRYPTED = 0x0001 | 0x0040 | 0x2000;
/** Flag bit 3: sizes and CRC in a data descriptor after the data (local header holds zeros). */
const DESCRIPTOR = 0x0008;
const READ_CHUNK = 1 << 20;
/** Compressed bytes handed to the inflater at a time (at most about 32 MiB out). */
const INFLATE_PIECE = 32 << 10;

/** Why an archive is refused (a sentence to follow the file's name). */
class ZipRefusal extends Error {}

async function readAt(
  file: Deno.FsFile,
  offset: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = await file.read(out.subarray(got));
    if (n === null) throw new ZipRefusal(`ends at byte ${offset + got} (truncated)`);
    got += n;
  }
  return out;
}

/** A 64-bit little-endian field as a number; past 2^53 it cannot be a real offset or size. */
function u64(view: DataView, at: number, what: string): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipRefusal(`${what} is ${v}, not a size`);
  return Number(v);
}

/** The zip64 extended-information field (header id 1) of an extra block, or null. */
function zip64Field(extra: Uint8Array): DataView | null {
  const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  for (let at = 0; at + 4 <= extra.length;) {
    const id = view.getUint16(at, true), size = view.getUint16(at + 2, true);
    if (at + 4 + size > extra.length) return null;
    if (id === 1) return new DataView(extra.buffer, extra.byteOffset + at + 4, size);
    at += 4 + size;
  }
  return null;
}

/**
 * The values a zip64 field replaces: each 32-bit field that is saturated
 * (0xFFFFFFFF) is read, in order, from the zip64 field.
 */
function zip64Values(
  extra: Uint8Array,
  fields: readonly { value: number; what: string }[],
  entry: string,
): number[] {
  const field = zip64Field(extra);
  let at = 0;
  return fields.map(({ value, what }) => {
    if (value !== U32) return value;
    if (field === null || at + 8 > field.byteLength) {
      throw new ZipRefusal(
        `entry ${entry} has a saturated ${what} but no zip64 field holding it`,
      );
    }
    const v = u64(field, at, `entry ${entry}'s zip64 ${what}`);
    at += 8;
    return v;
  });
}

const NAME = new TextDecoder("utf-8");

/**
 * Opens a zip archive and checks its structure (see the module). A file
 * that is not a zip, or is truncated or forged, is refused with why.
 *
 * @param path The archive.
 * @param maxEntryBytes The largest entry (uncompressed) that {@linkcode ZipArchive.read} reads.
 * @returns The archive, or why it is refused (a sentence to follow the file's name).
 *
 * @example Two entries, one read
 * ```ts
 * import { openZip } from "./zip_archive.ts";
 * import { zipSync } from "npm:fflate@0.8.3";
 * import { equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".zip" });
 * const text = new TextEncoder().encode("x".repeat(1000));
 * await Deno.writeFile(path, zipSync({ "a.txt": text, "b.txt": new Uint8Array(10) }));
 * const zip = await openZip(path, 1 << 20);
 * if (typeof zip === "string") throw new Error(zip);
 * equal(zip.entries.map((e) => `${e.name} ${e.size}`).join(", "), "a.txt 1000, b.txt 10");
 * const a = await zip.read(zip.entries[0]!);
 * equal(typeof a === "string" ? a : a.length, 1000);
 * zip.close();
 * const small = await openZip(path, 100);
 * if (typeof small === "string") throw new Error(small);
 * equal(await small.read(small.entries[0]!), "entry a.txt is 1000 bytes uncompressed, past the limit of 100 bytes (--max-entry-bytes)");
 * small.close();
 * await Deno.remove(path);
 * ```
 */
export async function openZip(path: string, maxEntryBytes: number): Promise<ZipArchive | string> {
  const file = await Deno.open(path, { read: true });
  try {
    const entries = await centralDirectory(file);
    return {
      entries,
      read: (entry) => readEntry(file, entry, maxEntryBytes),
      close: () => file.close(),
    };
  } catch (error) {
    file.close();
    if (error instanceof ZipRefusal) return error.message;
    throw error;
  }
}

/** Where the central directory is, as the end record (zip64's where present) says. */
interface DirectoryPlace {
  readonly count: number;
  readonly cdSize: number;
  readonly cdOffset: number;
}

/** Every entry of the archive, each checked against its local header; refuses forged layouts. */
async function centralDirectory(file: Deno.FsFile): Promise<ZipEntry[]> {
  const { count, cdSize, cdOffset } = await endRecord(file);
  const cd = await readAt(file, cdOffset, cdSize);
  const view = new DataView(cd.buffer);
  const entries: ZipEntry[] = [];
  const spans: Span[] = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > cdSize || view.getUint32(at, true) !== CENTRAL) {
      throw new ZipRefusal(
        `has a central directory that ends after ${k} of the ${count} entries its end record counts`,
      );
    }
    const flags = view.getUint16(at + 8, true), method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const nameLength = view.getUint16(at + 28, true), extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > cdSize) throw new ZipRefusal("has a central directory entry cut off (truncated)");
    const nameBytes = cd.subarray(at + 46, at + 46 + nameLength);
    const name = NAME.decode(nameBytes);
    const extra = cd.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    const [size, compressedSize, localOffset] = zip64Values(extra, [
      { value: view.getUint32(at + 24, true), what: "uncompressed size" },
      { value: view.getUint32(at + 20, true), what: "compressed size" },
      { value: view.getUint32(at + 42, true), what: "local header offset" },
    ], name) as [number, number, number];
    at = next;
    if ((flags & ENCRYPTED) !== 0) {
      throw new ZipRefusal(`has an encrypted entry ${name}; gatelab reads no encrypted entry`);
    }
    const dataStart = await localHeader(file, cdOffset, {
      name,
      nameBytes,
      method,
      crc32: crc,
      compressedSize,
      size,
      localOffset,
    });
    spans.push({ start: localOffset, end: dataStart + compressedSize, name });
    entries.push({ name, method, crc32: crc, compressedSize, size, dataStart });
  }
  if (at !== cdSize) {
    throw new ZipRefusal(
      `has ${cdSize - at} bytes in its central directory after its ${count} entries`,
    );
  }
  refuseOverlaps(spans);
  return entries;
}

/** The end record (and zip64's), checked: one disk, a directory inside the file, counts that fit. */
async function endRecord(file: Deno.FsFile): Promise<DirectoryPlace> {
  const size = (await file.stat()).size;
  if (size < 22) throw new ZipRefusal("is not a zip (too short for its end record)");
  // The end record: 22 bytes and a comment of at most 65,535 bytes, last in the file.
  const tailLength = Math.min(size, 22 + U16);
  const tail = await readAt(file, size - tailLength, tailLength);
  const tv = new DataView(tail.buffer);
  let eocd = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD && i + 22 + tv.getUint16(i + 20, true) === tailLength) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipRefusal("is not a zip, or is truncated (no end record)");
  const eocdAt = size - tailLength + eocd;
  let disk = tv.getUint16(eocd + 4, true), cdDisk = tv.getUint16(eocd + 6, true);
  let count = tv.getUint16(eocd + 10, true);
  let cdSize = tv.getUint32(eocd + 12, true), cdOffset = tv.getUint32(eocd + 16, true);
  let directoryEnd = eocdAt;
  const zip64 = eocd >= 20 && tv.getUint32(eocd - 20, true) === ZIP64_LOCATOR;
  if (zip64) {
    const recordAt = u64(tv, eocd - 12, "the zip64 end record's offset");
    if (recordAt + 56 > eocdAt - 20) {
      throw new ZipRefusal("has a zip64 end record outside the archive (forged)");
    }
    const record = new DataView((await readAt(file, recordAt, 56)).buffer);
    if (record.getUint32(0, true) !== ZIP64_EOCD) {
      throw new ZipRefusal("has a zip64 locator that points at no zip64 end record");
    }
    disk = record.getUint32(16, true);
    cdDisk = record.getUint32(20, true);
    count = u64(record, 32, "the zip64 entry count");
    cdSize = u64(record, 40, "the zip64 central directory size");
    cdOffset = u64(record, 48, "the zip64 central directory offset");
    directoryEnd = recordAt;
  } else if (count === U16 || cdSize === U32 || cdOffset === U32) {
    throw new ZipRefusal("has a saturated end record but no zip64 end record (forged)");
  }
  if (disk !== 0 || cdDisk !== 0) throw new ZipRefusal("is split over several disks");
  if (cdOffset + cdSize > directoryEnd) {
    throw new ZipRefusal(
      `has a central directory (${cdSize} bytes at ${cdOffset}) that runs past its end record (truncated or forged)`,
    );
  }
  if (count * 46 > cdSize) {
    throw new ZipRefusal(
      `says it holds ${count} entries, more than its central directory of ${cdSize} bytes can`,
    );
  }
  return { count, cdSize, cdOffset };
}

/**
 * An entry's local header, checked against its central directory record
 * (signature, name, encryption, method, and sizes and CRC unless a data
 * descriptor follows); returns where its data starts.
 */
async function localHeader(
  file: Deno.FsFile,
  cdOffset: number,
  entry: Omit<ZipEntry, "dataStart"> & {
    readonly nameBytes: Uint8Array;
    readonly localOffset: number;
  },
): Promise<number> {
  const { name, localOffset, compressedSize } = entry;
  if (localOffset + 30 > cdOffset) {
    throw new ZipRefusal(`has an entry ${name} whose local header lies outside the entries`);
  }
  const local = await readAt(file, localOffset, 30);
  const lv = new DataView(local.buffer);
  if (lv.getUint32(0, true) !== LOCAL) {
    throw new ZipRefusal(`has no local header where entry ${name} should start (forged)`);
  }
  const localName = lv.getUint16(26, true), localExtra = lv.getUint16(28, true);
  const dataStart = localOffset + 30 + localName + localExtra;
  if (dataStart + compressedSize > cdOffset) {
    throw new ZipRefusal(
      `has an entry ${name} whose ${compressedSize} compressed bytes run past the entries into the central directory (its sizes are forged, or the file is truncated)`,
    );
  }
  const localBytes = await readAt(file, localOffset + 30, localName + localExtra);
  if (!sameBytes(localBytes.subarray(0, localName), entry.nameBytes)) {
    throw new ZipRefusal(
      `has an entry ${name} whose local header names another file (forged)`,
    );
  }
  const localFlags = lv.getUint16(6, true);
  if ((localFlags & ENCRYPTED) !== 0) {
    throw new ZipRefusal(`has an encrypted entry ${name}; gatelab reads no encrypted entry`);
  }
  if (lv.getUint16(8, true) !== entry.method) {
    throw new ZipRefusal(
      `has an entry ${name} whose local header and central directory disagree on its compression`,
    );
  }
  if ((localFlags & DESCRIPTOR) === 0) {
    const localSizes = zip64Values(localBytes.subarray(localName), [
      { value: lv.getUint32(22, true), what: "uncompressed size" },
      { value: lv.getUint32(18, true), what: "compressed size" },
    ], name);
    if (
      lv.getUint32(14, true) !== entry.crc32 || localSizes[0] !== entry.size ||
      localSizes[1] !== compressedSize
    ) {
      throw new ZipRefusal(
        `has an entry ${name} whose local header and central directory disagree on its sizes or CRC (forged)`,
      );
    }
  }
  return dataStart;
}

/** The bytes of one entry, local header to end of data. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

/** Entries whose bytes overlap (a zip bomb's trick) are refused, naming two of them. */
function refuseOverlaps(spans: Span[]): void {
  spans.sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    const a = spans[k - 1]!, b = spans[k]!;
    if (b.start < a.end) {
      throw new ZipRefusal(
        `has overlapping entries ${a.name} and ${b.name} (their data share bytes: a zip bomb, or forged)`,
      );
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function readEntry(
  file: Deno.FsFile,
  entry: ZipEntry,
  maxEntryBytes: number,
): Promise<Uint8Array | string> {
  const { name, size } = entry;
  if (size > maxEntryBytes) {
    return `entry ${name} is ${size} bytes uncompressed, past the limit of ${maxEntryBytes} bytes (--max-entry-bytes)`;
  }
  let out: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== size) {
      return `entry ${name} is stored uncompressed but its two sizes differ (${entry.compressedSize} and ${size}; forged)`;
    }
    out = await readAt(file, entry.dataStart, size);
  } else if (entry.method === 8 || entry.method === ZSTD) {
    const inflated = entry.method === 8 ? await inflate(file, entry) : await unzstd(file, entry);
    if (typeof inflated === "string") return inflated;
    out = inflated;
  } else {
    return `entry ${name} uses compression method ${entry.method}; gatelab reads stored (0), deflated (8) and Zstandard (93) entries`;
  }
  const crc = crc32(out) >>> 0;
  if (crc !== entry.crc32) {
    return `entry ${name} has CRC-32 ${hex(crc)}, the archive says ${
      hex(entry.crc32)
    } (corrupt or altered)`;
  }
  return out;
}

const hex = (n: number) => n.toString(16).padStart(8, "0");

/**
 * Inflates the entry's deflate data as a stream, stopping as soon as the
 * output passes the declared size (so memory never exceeds that size,
 * which the caller bounded).
 */
async function inflate(file: Deno.FsFile, entry: ZipEntry): Promise<Uint8Array | string> {
  const { name, size, compressedSize, dataStart } = entry;
  const out = new Uint8Array(size);
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const feed = (async () => {
    for (let done = 0; done < compressedSize;) {
      const n = Math.min(READ_CHUNK, compressedSize - done);
      const chunk = await readAt(file, dataStart + done, n);
      // Deflate inflates up to about 1,032 times: small pieces keep each output chunk small.
      for (let at = 0; at < n; at += INFLATE_PIECE) {
        await writer.write(chunk.subarray(at, Math.min(n, at + INFLATE_PIECE)));
      }
      done += n;
    }
    await writer.close();
  })();
  // Its failure is reported through the reader (or below); never unhandled.
  feed.catch(() => {});
  let got = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (got + value.length > size) {
        await reader.cancel().catch(() => {});
        return `entry ${name} inflates past its declared size of ${size} bytes (a zip bomb, or forged)`;
      }
      out.set(value, got);
      got += value.length;
    }
    await feed;
  } catch (error) {
    if (error instanceof ZipRefusal) return `entry ${name}: the archive ${error.message}`;
    return `entry ${name} is not valid deflate data of ${compressedSize} bytes (${
      error instanceof Error ? error.message : error
    })`;
  }
  if (got !== size) {
    return `entry ${name} inflates to ${got} bytes, the archive says ${size} (truncated or forged)`;
  }
  return out;
}

/** Thrown from the Zstandard output handler to stop at the declared size. */
class PastDeclaredSize extends Error {}

/**
 * Decompresses the entry's Zstandard data (fzstd, every frame) as a
 * stream, stopping as soon as the output passes the declared size.
 */
async function unzstd(file: Deno.FsFile, entry: ZipEntry): Promise<Uint8Array | string> {
  const { Decompress } = await import("npm:fzstd@0.1.1");
  const { name, size, compressedSize, dataStart } = entry;
  const out = new Uint8Array(size);
  let got = 0;
  const stream = new Decompress((chunk) => {
    if (got + chunk.length > size) throw new PastDeclaredSize();
    out.set(chunk, got);
    got += chunk.length;
  });
  try {
    for (let done = 0; done < compressedSize;) {
      const n = Math.min(READ_CHUNK, compressedSize - done);
      const chunk = await readAt(file, dataStart + done, n);
      done += n;
      stream.push(chunk, done === compressedSize);
    }
  } catch (error) {
    if (error instanceof PastDeclaredSize) {
      return `entry ${name} inflates past its declared size of ${size} bytes (a zip bomb, or forged)`;
    }
    if (error instanceof ZipRefusal) return `entry ${name}: the archive ${error.message}`;
    return `entry ${name} is not valid Zstandard data of ${compressedSize} bytes (${
      error instanceof Error ? error.message : error
    })`;
  }
  if (got !== size) {
    return `entry ${name} inflates to ${got} bytes, the archive says ${size} (truncated or forged)`;
  }
  return out;
}
