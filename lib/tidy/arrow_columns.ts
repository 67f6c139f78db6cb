/**
 * Arrow vectors built directly from column values: the value buffer
 * (Float64Array, Int32Array, bit-packed booleans, UTF-8 bytes with
 * offsets) and a validity bitmap are filled in one pass, instead of going
 * through apache-arrow's per-value builders (`vectorFromArray`), several
 * times slower on the tables `gate sql` loads. Missing values as in
 * lib/tidy/tidy_table.ts: null, undefined and non-finite numbers are
 * null, `-0` is `0`.
 *
 * @module
 */
import type { TidyKind } from "./tidy_table.ts";
import { concatBytes } from "../core/bytes.ts";

/** The apache-arrow module (imported by the caller, on call). */
type Arrow = typeof import("npm:apache-arrow@17.0.0");

/** A validity bitmap with bit i set where `valid(i)`; null when every value is valid. */
function validity(length: number, valid: (i: number) => boolean): {
  bitmap: Uint8Array | null;
  nulls: number;
} {
  const bitmap = new Uint8Array((length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (valid(i)) bitmap[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return { bitmap: nulls === 0 ? null : bitmap, nulls };
}

/**
 * The values themselves when they are already the column's typed array
 * with nothing to change (no non-finite number, no -0): no copy, no bitmap.
 */
function typedAsIs(
  kind: "f64" | "i32",
  values: ArrayLike<unknown>,
): Float64Array | Int32Array | null {
  if (kind === "i32") return values instanceof Int32Array ? values : null;
  if (!(values instanceof Float64Array)) return null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) || (v === 0 && 1 / v < 0)) return null;
  }
  return values;
}

/** Texts encoded per batch: one batch's concatenation stays far below V8's string limit. */
const UTF8_BATCH = 1 << 16;

/**
 * Offsets and UTF-8 bytes of texts: batch by batch, one encode of the
 * batch's concatenation when it is all ASCII (then bytes = characters),
 * else one encode per text.
 */
function utf8(texts: readonly string[]): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(texts.length + 1);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (let start = 0; start < texts.length; start += UTF8_BATCH) {
    const batch = texts.slice(start, start + UTF8_BATCH);
    const joined = batch.join("");
    // deno-lint-ignore no-control-regex
    if (/^[\x00-\x7f]*$/.test(joined)) {
      batch.forEach((t, i) => (offsets[start + i + 1] = offsets[start + i]! + t.length));
      parts.push(encoder.encode(joined));
    } else {
      batch.forEach((t, i) => {
        const bytes = encoder.encode(t);
        parts.push(bytes);
        offsets[start + i + 1] = offsets[start + i]! + bytes.length;
      });
    }
  }
  return { offsets, bytes: concatBytes(parts) };
}

/**
 * One column as an Arrow vector: `str` Utf8, `f64` Float64, `i32` Int32,
 * `bool` Bool, `str_list` List<Utf8>.
 *
 * @param arrow The apache-arrow module.
 * @param kind The column's kind.
 * @param values One value per row.
 * @returns The vector.
 *
 * @example
 * ```ts
 * import * as arrow from "npm:apache-arrow@17.0.0";
 * import { arrowColumn } from "./arrow_columns.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...arrowColumn(arrow, "f64", [1.5, null, NaN, -0])], [1.5, null, null, 0]);
 * deepEqual([...arrowColumn(arrow, "str", ["a", null, "é"])], ["a", null, "é"]);
 * deepEqual([...arrowColumn(arrow, "bool", [true, false, null])], [true, false, null]);
 * deepEqual(arrowColumn(arrow, "str_list", [["x", "y"], []]).get(0)!.toArray(), ["x", "y"]);
 * ```
 */
export function arrowColumn(
  arrow: Arrow,
  kind: TidyKind,
  values: ArrayLike<unknown>,
): InstanceType<Arrow["Vector"]> {
  const length = values.length;
  switch (kind) {
    case "f64":
    case "i32": {
      const direct = typedAsIs(kind, values);
      if (direct !== null) {
        const type = kind === "f64" ? new arrow.Float64() : new arrow.Int32();
        return arrow.makeVector(
          arrow.makeData({ type, length, nullCount: 0, data: direct } as never),
        );
      }
      const data = kind === "f64" ? new Float64Array(length) : new Int32Array(length);
      const { bitmap, nulls } = validity(length, (i) => {
        const v = values[i];
        if (typeof v !== "number" || !Number.isFinite(v)) return false;
        data[i] = v === 0 ? 0 : v;
        return true;
      });
      const type = kind === "f64" ? new arrow.Float64() : new arrow.Int32();
      return arrow.makeVector(
        arrow.makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, data } as never),
      );
    }
    case "bool": {
      const data = new Uint8Array((length + 7) >> 3);
      const { bitmap, nulls } = validity(length, (i) => {
        const v = values[i];
        if (typeof v !== "boolean") return false;
        if (v) data[i >> 3]! |= 1 << (i & 7);
        return true;
      });
      return arrow.makeVector(
        arrow.makeData({
          type: new arrow.Bool(),
          length,
          nullCount: nulls,
          nullBitmap: bitmap,
          data,
        }),
      );
    }
    case "str": {
      const texts = new Array<string>(length);
      const { bitmap, nulls } = validity(length, (i) => {
        const v = values[i];
        texts[i] = v === null || v === undefined ? "" : String(v);
        return v !== null && v !== undefined;
      });
      const { offsets, bytes } = utf8(texts);
      return arrow.makeVector(
        arrow.makeData({
          type: new arrow.Utf8(),
          length,
          nullCount: nulls,
          nullBitmap: bitmap,
          valueOffsets: offsets,
          data: bytes,
        }),
      );
    }
    case "str_list": {
      const offsets = new Int32Array(length + 1);
      const items: string[] = [];
      const { bitmap, nulls } = validity(length, (i) => {
        const v = values[i];
        const list = Array.isArray(v) ? v : [];
        for (const x of list) items.push(String(x));
        offsets[i + 1] = items.length;
        return Array.isArray(v);
      });
      const child = arrowColumn(arrow, "str", items).data[0]!;
      const type = new arrow.List(new arrow.Field("item", new arrow.Utf8(), true));
      return arrow.makeVector(
        arrow.makeData({
          type,
          length,
          nullCount: nulls,
          nullBitmap: bitmap,
          valueOffsets: offsets,
          child,
        } as never),
      );
    }
  }
}
