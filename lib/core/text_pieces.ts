/** Bytes encoded before each write. */
const WRITE_BYTES = 1 << 20;

/**
 * Writes text given in pieces to a file as UTF-8, through one 1 MiB
 * buffer: the same bytes as encoding the pieces joined (a surrogate pair
 * cut between two pieces is encoded whole, as `TextEncoderStream` does). A
 * piece may also be bytes, written as they are.
 *
 * @param file An open file.
 * @param pieces The text, in order.
 *
 * @example
 * ```ts
 * import { writeTextPieces } from "./text_pieces.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * {
 *   using file = await Deno.open(path, { write: true });
 *   await writeTextPieces(file, ["é\uD83D", "\uDE00", new Uint8Array([33])]);
 * }
 * deepEqual(await Deno.readTextFile(path), "é\u{1F600}!");
 * await Deno.remove(path);
 * ```
 */
export async function writeTextPieces(
  file: Deno.FsFile,
  pieces: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(WRITE_BYTES);
  let used = 0, carry = "";
  const writeAll = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  };
  const flush = async () => {
    await writeAll(buffer.subarray(0, used));
    used = 0;
  };
  const encode = async (text: string) => {
    while (text.length > 0) {
      const { read, written } = encoder.encodeInto(text, buffer.subarray(used));
      used += written;
      text = text.slice(read);
      // encodeInto stops before a character that does not fit (at most 4 bytes).
      if (used > WRITE_BYTES - 4) await flush();
    }
  };
  for await (const piece of pieces) {
    if (piece instanceof Uint8Array) {
      await encode(carry);
      carry = "";
      await flush();
      await writeAll(piece);
      continue;
    }
    // A high surrogate that ends a piece waits for the next piece.
    let text = carry === "" ? piece : carry + piece;
    const last = text.charCodeAt(text.length - 1);
    carry = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : "";
    if (carry !== "") text = text.slice(0, -1);
    await encode(text);
  }
  await encode(carry);
  await flush();
}
