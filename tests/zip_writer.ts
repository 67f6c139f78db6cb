/**
 * A zip writer for tests that need archives no honest writer makes: every
 * field of the central directory and the local headers can be forged
 * (sizes, CRC, flags, offsets, zip64 fields), entries can share a name, and
 * the bytes of a deflated entry can be given as they are. Built at test
 * time, so no hostile archive is committed. Follows the layout of PKWARE's
 * APPNOTE (local header, data, central directory, end record).
 */
import * as zlib from "node:zlib";
import { constants, crc32, deflateRawSync } from "node:zlib";

/** Deno's node:zlib has Zstandard (as Node 22.15 does); the Node 20 types it checks against do not. */
const zstdCompressSync = (zlib as unknown as { zstdCompressSync(b: Uint8Array): Uint8Array })
  .zstdCompressSync;

/** One entry as written. Declared fields default to the real ones. */
export interface RawEntry {
  readonly name: string;
  /** The entry's bytes as stored (compressed when `method` is 8 or 93). */
  readonly data: Uint8Array;
  /** 0 stored, 8 deflated, 93 Zstandard. */
  readonly method?: 0 | 8 | 93;
  /** Declared in both headers. */
  readonly crc?: number;
  readonly size?: number;
  readonly compressedSize?: number;
  readonly flags?: number;
  /** Declared in a zip64 field (the 32-bit fields then 0xFFFFFFFF) in both headers. */
  readonly zip64?: { readonly size: number; readonly compressedSize: number };
  /** The central directory's local header offset instead of the real one. */
  readonly localOffset?: number;
  /** The local header's sizes instead of the declared ones. */
  readonly localSizes?: { readonly size: number; readonly compressedSize: number };
}

/** An entry of text or bytes, deflated, with its real CRC and sizes. */
export function deflated(name: string, content: string | Uint8Array): RawEntry {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return {
    name,
    data: new Uint8Array(deflateRawSync(bytes)),
    method: 8,
    crc: crc32(bytes) >>> 0,
    size: bytes.length,
  };
}

/**
 * An entry of text compressed with Zstandard as inspect_ai writes it: the
 * bytes cut into `frames` parts, each its own frame (inspect_ai caps a
 * frame's input, so large entries hold several).
 */
export function zstded(name: string, content: string, frames = 1): RawEntry {
  const bytes = new TextEncoder().encode(content);
  const step = Math.ceil(bytes.length / frames);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += step) {
    parts.push(new Uint8Array(zstdCompressSync(bytes.subarray(at, at + step))));
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  return { name, data, method: 93, crc: crc32(bytes) >>> 0, size: bytes.length };
}

/** Zstandard data of `size` zero bytes (a multiple of 64 MiB): one 64 MiB frame, repeated. */
export function zeroZstd(size: number): Uint8Array {
  const unit = 64 * 1024 * 1024;
  if (size % unit !== 0) throw new Error("zeroZstd: a multiple of 64 MiB");
  const frame = new Uint8Array(zstdCompressSync(new Uint8Array(unit)));
  const n = size / unit;
  const out = new Uint8Array(frame.length * n);
  for (let k = 0; k < n; k++) out.set(frame, k * frame.length);
  return out;
}

/**
 * Deflate data that inflates to `size` zero bytes (a multiple of 64 MiB)
 * from about size/1000 bytes: one 64 MiB block ending in a sync flush,
 * repeated, then an empty final block.
 */
export function zeroDeflate(size: number): Uint8Array {
  const unit = 64 * 1024 * 1024;
  if (size % unit !== 0) throw new Error("zeroDeflate: a multiple of 64 MiB");
  const block = new Uint8Array(
    deflateRawSync(new Uint8Array(unit), { finishFlush: constants.Z_SYNC_FLUSH }),
  );
  const n = size / unit;
  const out = new Uint8Array(block.length * n + 2);
  for (let k = 0; k < n; k++) out.set(block, k * block.length);
  out.set([0x03, 0x00], block.length * n);
  return out;
}

class Bytes {
  readonly parts: Uint8Array[] = [];
  length = 0;
  push(b: Uint8Array): void {
    this.parts.push(b);
    this.length += b.length;
  }
  join(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function header(size: number, fill: (v: DataView) => void): Uint8Array {
  const b = new Uint8Array(size);
  fill(new DataView(b.buffer));
  return b;
}

function zip64Extra(size: number, compressedSize: number, offset?: number): Uint8Array {
  const n = offset === undefined ? 16 : 24;
  return header(4 + n, (v) => {
    v.setUint16(0, 1, true);
    v.setUint16(2, n, true);
    v.setBigUint64(4, BigInt(size), true);
    v.setBigUint64(12, BigInt(compressedSize), true);
    if (offset !== undefined) v.setBigUint64(20, BigInt(offset), true);
  });
}

/** Options of {@linkcode rawZip}: a forged end record. */
export interface RawZipOptions {
  /** Entry count in the end record instead of the real one. */
  readonly count?: number;
  /** A zip64 end record and locator; `recordOffset` forges where the locator points. */
  readonly zip64?: { readonly recordOffset?: number };
}

/** The archive's bytes: local headers and data in order, central directory, end record. */
export function rawZip(entries: readonly RawEntry[], options: RawZipOptions = {}): Uint8Array {
  const out = new Bytes();
  const central = new Bytes();
  const enc = new TextEncoder();
  for (const e of entries) {
    const name = enc.encode(e.name);
    const method = e.method ?? 0;
    const crc = e.crc ?? (crc32(e.data) >>> 0);
    const size = e.size ?? e.data.length;
    const compressedSize = e.compressedSize ?? e.data.length;
    const flags = e.flags ?? 0x0800;
    const offset = out.length;
    const local = e.localSizes ?? { size, compressedSize };
    const localExtra = e.zip64
      ? zip64Extra(e.zip64.size, e.zip64.compressedSize)
      : new Uint8Array();
    out.push(header(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, e.zip64 ? 45 : 20, true);
      v.setUint16(6, flags, true);
      v.setUint16(8, method, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, e.zip64 ? 0xffffffff : local.compressedSize, true);
      v.setUint32(22, e.zip64 ? 0xffffffff : local.size, true);
      v.setUint16(26, name.length, true);
      v.setUint16(28, localExtra.length, true);
    }));
    out.push(name);
    out.push(localExtra);
    out.push(e.data);
    const cdExtra = e.zip64 ? zip64Extra(e.zip64.size, e.zip64.compressedSize) : new Uint8Array();
    central.push(header(46, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(4, 0x031e, true);
      v.setUint16(6, e.zip64 ? 45 : 20, true);
      v.setUint16(8, flags, true);
      v.setUint16(10, method, true);
      v.setUint32(16, crc, true);
      v.setUint32(20, e.zip64 ? 0xffffffff : compressedSize, true);
      v.setUint32(24, e.zip64 ? 0xffffffff : size, true);
      v.setUint16(28, name.length, true);
      v.setUint16(30, cdExtra.length, true);
      v.setUint32(42, e.localOffset ?? offset, true);
    }));
    central.push(name);
    central.push(cdExtra);
  }
  const cdOffset = out.length, cdSize = central.length;
  for (const p of central.parts) out.push(p);
  const count = options.count ?? entries.length;
  if (options.zip64) {
    const recordAt = out.length;
    out.push(header(56, (v) => {
      v.setUint32(0, 0x06064b50, true);
      v.setBigUint64(4, 44n, true);
      v.setUint16(12, 45, true);
      v.setUint16(14, 45, true);
      v.setBigUint64(24, BigInt(count), true);
      v.setBigUint64(32, BigInt(count), true);
      v.setBigUint64(40, BigInt(cdSize), true);
      v.setBigUint64(48, BigInt(cdOffset), true);
    }));
    out.push(header(20, (v) => {
      v.setUint32(0, 0x07064b50, true);
      v.setBigUint64(8, BigInt(options.zip64!.recordOffset ?? recordAt), true);
      v.setUint32(16, 1, true);
    }));
  }
  out.push(header(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, options.zip64 ? 0xffff : count, true);
    v.setUint16(10, options.zip64 ? 0xffff : count, true);
    v.setUint32(12, options.zip64 ? 0xffffffff : cdSize, true);
    v.setUint32(16, options.zip64 ? 0xffffffff : cdOffset, true);
  }));
  return out.join();
}

/**
 * Entries whose data overlap, as an overlapping zip bomb lays them out: the
 * first entry's compressed data span the local headers and data of all the
 * others, so one kernel of deflate data is inflated once per entry. Each
 * entry declares `size` bytes.
 */
export function overlappingZip(
  names: readonly string[],
  size: number,
  kernel: Uint8Array,
  extra: readonly RawEntry[] = [],
): Uint8Array {
  const enc = new TextEncoder();
  // Lay out local headers back to back, the kernel last; entry k's data run to the kernel's end.
  const locals = names.map((n) => enc.encode(n));
  const starts: number[] = [];
  let at = 0;
  for (const name of locals) {
    starts.push(at);
    at += 30 + name.length;
  }
  const end = at + kernel.length;
  const body = new Bytes();
  const central = new Bytes();
  names.forEach((_, k) => {
    const name = locals[k]!;
    const compressedSize = end - (starts[k]! + 30 + name.length);
    body.push(header(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(8, 8, true);
      v.setUint32(18, compressedSize, true);
      v.setUint32(22, size, true);
      v.setUint16(26, name.length, true);
    }));
    body.push(name);
    central.push(header(46, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(6, 20, true);
      v.setUint16(10, 8, true);
      v.setUint32(20, compressedSize, true);
      v.setUint32(24, size, true);
      v.setUint16(28, name.length, true);
      v.setUint32(42, starts[k]!, true);
    }));
    central.push(name);
  });
  body.push(kernel);
  // The honest entries after the bomb (header.json), then the directory.
  const tail = rawZip(extra);
  const tailView = new DataView(tail.buffer);
  const tailEnd = tail.length - 22;
  const tailCdOffset = tailView.getUint32(tailEnd + 16, true);
  const shift = body.length;
  const honest = tail.subarray(0, tailCdOffset);
  const honestCentral = tail.slice(tailCdOffset, tailEnd);
  const hv = new DataView(honestCentral.buffer);
  for (let p = 0; p < honestCentral.length;) {
    hv.setUint32(p + 42, hv.getUint32(p + 42, true) + shift, true);
    p += 46 + hv.getUint16(p + 28, true) + hv.getUint16(p + 30, true) + hv.getUint16(p + 32, true);
  }
  const all = new Bytes();
  for (const p of body.parts) all.push(p);
  all.push(honest);
  const cdOffset = all.length;
  for (const p of central.parts) all.push(p);
  all.push(honestCentral);
  const count = names.length + extra.length;
  all.push(header(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, count, true);
    v.setUint16(10, count, true);
    v.setUint32(12, all.length - cdOffset, true);
    v.setUint32(16, cdOffset, true);
  }));
  return all.join();
}
