import type { Issue } from "../core/issue.ts";
import { nearestName } from "../core/nearest_name.ts";
import type { ImportMapping } from "./mapping.ts";
import type { SourceTable } from "./table.ts";

/**
 * One rollout attempt of an import, whatever its source (a table row or an
 * inspect_ai sample), before it is split into runs and gates.
 */
export interface ImportRow {
  /** The source file, as given. */
  readonly file: string;
  /** One-based row of the table (header excluded), or sample number of a log. */
  readonly row: number;
  readonly split: string;
  readonly task_id: string;
  readonly sample_id: number;
  readonly arm: "bare" | "masked";
  /** Which masked round (gate) the row belongs to; null: the one default round. */
  readonly round: string | null;
  readonly checkpoint_id: string | null;
  /** Attempt number as recorded, or null (then numbered in row order). */
  readonly attempt: number | null;
  readonly status: "completed" | "failed";
  readonly reward: number | null;
  /** Component name (`r_<name>`) to value; failed rows may lack them. */
  readonly rewards: Readonly<Record<string, number>>;
  readonly job_seed: number | null;
  /** Injected version ids as recorded, or null when the source has no injected list. */
  readonly injected: readonly string[] | null;
  /** Version id to 0/1 as recorded in mask columns, or null when the source has none. */
  readonly mask: Readonly<Record<string, 0 | 1>> | null;
  readonly error: string | null;
  /** Columns no mapping consumed, kept per attempt (FORMAT.md: passed through). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** What a table's columns were read as: the source of each contract field. */
export interface ColumnUse {
  /** Component name to the column it came from, in order. */
  readonly components: readonly (readonly [string, string])[];
  /** Version id to its mask column, in order. */
  readonly mask: readonly (readonly [string, string])[];
  /** The injected list column, or null. */
  readonly injected: string | null;
  /** Contract field to its column, for the fields found. */
  readonly fields: Readonly<Record<string, string>>;
}

const FIELDS = [
  "task_id",
  "sample_id",
  "split",
  "arm",
  "round",
  "checkpoint_id",
  "attempt",
  "status",
  "reward",
  "job_seed",
  "error",
] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED: readonly Field[] = ["task_id", "arm", "reward"];
/** The fields read as text. */
type TextField = "task_id" | "split" | "round" | "checkpoint_id" | "arm" | "status" | "error";
/** The id fields: text, or integers read as their digits (never a list, an object or a fraction). */
const ID_FIELDS: ReadonlySet<Field> = new Set(["task_id", "split", "round", "checkpoint_id"]);
/** A column as a table holds it. */
type Column = SourceTable["data"][string];

/**
 * Reads a table's rows as attempts through the mapping (or the canonical
 * column names): every problem is an issue naming file, row (one-based,
 * header excluded) and column; the rows are returned only when there is
 * none.
 *
 * @param table The table as read.
 * @param mapping The import mapping.
 * @returns The rows and what each column was used as, or the issues (and
 *   `unmapped`: the mapping keys that would name canonical columns found missing).
 */
export function tableRows(
  table: SourceTable,
  mapping: ImportMapping,
):
  | { ok: true; rows: ImportRow[]; use: ColumnUse }
  | { ok: false; issues: Issue[]; unmapped?: readonly string[] } {
  const columns = columnUse(table, mapping);
  if (!columns.ok) return columns;
  const { use, consumed } = columns;
  const issues: Issue[] = [];
  const read = rowReader(table, mapping, use, consumed, issues);
  const rows: ImportRow[] = [];
  for (let i = 0; i < table.rows; i++) {
    const row = read(i);
    if (row !== null) rows.push(row);
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, rows, use };
}

/**
 * The column of each contract field, component, mask version and the
 * injected list (mapped, canonical, or found by the `r_` and `mask:`
 * prefixes), and the columns consumed; a required or mapped column that is
 * missing, or no mask at all, is an issue.
 */
function columnUse(
  table: SourceTable,
  mapping: ImportMapping,
):
  | { ok: true; use: ColumnUse; consumed: Set<string> }
  | { ok: false; issues: Issue[]; unmapped: string[] } {
  const issues: Issue[] = [];
  const has = new Set(table.columns);
  const file = table.file;
  const missing = (column: string, what: string) => {
    const near = nearestName(column, table.columns);
    issues.push({
      code: "schema_error",
      message: `required column "${column}"${what === column ? "" : ` (${what})`} is missing${
        near ? `; nearest existing column: "${near}"` : ""
      }`,
      file,
      path: column,
    });
  };
  const fields: Partial<Record<Field, string>> = {};
  const named = mapping.columns ?? {};
  // The mapping keys that would name the canonical columns found missing.
  const unmapped: string[] = [];
  for (const f of FIELDS) {
    // The primary metric is the mapping's `primary` column when it names one.
    const column = (f === "reward" ? mapping.primary : undefined) ?? named[f] ?? f;
    if (has.has(column)) fields[f] = column;
    else if (
      REQUIRED.includes(f) || named[f] !== undefined || (f === "reward" && mapping.primary)
    ) {
      missing(
        column,
        f !== "reward" ? f : column === f ? "the primary metric" : "the primary metric, reward",
      );
      if (named[f] === undefined && !(f === "reward" && mapping.primary)) {
        unmapped.push(f === "reward" ? "columns.reward (or primary)" : `columns.${f}`);
      }
    }
  }
  const components: [string, string][] = [];
  const componentColumns = new Set<string>();
  for (const [name, column] of Object.entries(named.components ?? {})) {
    if (!has.has(column)) missing(column, `component ${name}`);
    else {
      components.push([name, column]);
      componentColumns.add(column);
    }
  }
  const mask: [string, string][] = [];
  for (const [version, column] of Object.entries(named.mask ?? {})) {
    if (!has.has(column)) missing(column, `mask of ${version}`);
    else mask.push([version, column]);
  }
  const consumed = new Set<string>([...Object.values(fields), ...componentColumns]);
  for (const [, c] of mask) consumed.add(c);
  const injectedColumn = named.injected ?? "injected";
  const injected = has.has(injectedColumn) ? injectedColumn : null;
  if (injected === null && named.injected !== undefined) missing(injectedColumn, "injected");
  if (injected !== null) consumed.add(injected);
  for (const c of table.columns) {
    if (consumed.has(c)) continue;
    const m = /^mask:(.+)$/.exec(c);
    if (m) {
      mask.push([m[1]!, c]);
      consumed.add(c);
    } else if (/^r_.+/.test(c) && !components.some(([n]) => n === c)) {
      components.push([c, c]);
      consumed.add(c);
    }
  }
  // The primary metric may be a component too (primary: "r_success").
  if (mapping.primary !== undefined && /^r_.+/.test(mapping.primary)) {
    const column = fields.reward;
    if (column !== undefined && !components.some(([n]) => n === mapping.primary)) {
      components.push([mapping.primary, column]);
    }
  }
  if (mask.length === 0 && injected === null) {
    issues.push({
      code: "schema_error",
      message:
        'no mask: give one 0/1 column per version named "mask:<version_id>", or a list column "injected" (or map them)',
      file,
      path: "injected",
    });
    unmapped.push("columns.mask", "columns.injected");
  }
  if (issues.length > 0) return { ok: false, issues, unmapped };
  return {
    ok: true,
    use: { components, mask, injected, fields: fields as Record<string, string> },
    consumed,
  };
}

/** Records an issue at a row (zero-based index) and column. */
type Bad = (i: number, column: string, message: string, code?: Issue["code"]) => void;

/**
 * The reader of row `i` of a table whose columns are resolved: the
 * attempt, or null when the row has an issue (pushed to `issues`). Each
 * column's values are looked up once, not per cell, and the helpers made
 * once, not per row.
 */
function rowReader(
  table: SourceTable,
  mapping: ImportMapping,
  use: ColumnUse,
  consumed: ReadonlySet<string>,
  issues: Issue[],
): (i: number) => ImportRow | null {
  const file = table.file;
  const fields = use.fields as Partial<Record<Field, string>>;
  const bad: Bad = (i, column, message, code = "schema_error") =>
    issues.push({ code, message, file, line: i + 1, path: column });
  const armOf = valueMap(mapping.arm_values, ["bare", "masked"] as const);
  const statusOf = valueMap(mapping.status_values, ["completed", "failed"] as const);
  const cols = Object.fromEntries(
    FIELDS.map((f) => [f, fields[f] === undefined ? null : table.data[fields[f]]!]),
  ) as Record<Field, Column | null>;
  // A text field's cell: text, an integer as its digits (ids), a number or boolean as JSON
  // writes it (arm, status, error); anything else is an issue (undefined), never `String(v)`.
  const textAt = (f: TextField, i: number, fallback: string | null): string | null | undefined => {
    const values = cols[f];
    const v = values === null ? null : values[i] ?? null;
    if (v === null || v === "") return fallback;
    if (typeof v === "string") return v;
    const text = ID_FIELDS.has(f) ? idText(v) : valueText(v);
    if (text === undefined) {
      bad(
        i,
        fields[f]!,
        ID_FIELDS.has(f)
          ? `${f} ${show(v)} is not text: an id is text, or an integer (read as its digits)`
          : `${f} ${show(v)} is not text`,
      );
    }
    return text;
  };
  const rewardsOf = componentReader(table, use, bad);
  const maskOf = maskReader(table, use, bad);
  const injectedOf = injectedReader(table, use, bad);
  const extraOf = extraReader(table, consumed, bad);
  const split = mapping.split ?? "val";
  const checkpoint = mapping.provenance?.checkpoint_id ?? null;
  return (i) => {
    const taskId = textAt("task_id", i, null);
    if (taskId === null) bad(i, fields.task_id!, "task_id is empty");
    const splitText = textAt("split", i, split);
    const round = textAt("round", i, null);
    const checkpointId = textAt("checkpoint_id", i, checkpoint);
    const armText = textAt("arm", i, null);
    const arm = armText == null ? null : armOf(armText);
    if (arm === null && armText !== undefined) {
      bad(
        i,
        fields.arm!,
        `arm "${armText ?? ""}" is neither bare (${armOf.accepted[0]}) nor masked (${
          armOf.accepted[1]
        })`,
      );
    }
    const statusText = textAt("status", i, "completed");
    const status = statusText === undefined ? null : statusOf(statusText!);
    if (status === null && statusText !== undefined) {
      bad(i, fields.status!, `status "${statusText}" is neither completed nor failed`);
    }
    const sampleId = intValue(cols.sample_id?.[i], 0);
    if (sampleId === undefined || sampleId < 0) {
      bad(i, fields.sample_id!, `sample_id ${show(cols.sample_id?.[i])} is not an integer >= 0`);
    }
    const attempt = intValue(cols.attempt?.[i], null);
    if (attempt === undefined || (attempt !== null && attempt < 0)) {
      bad(i, fields.attempt!, `attempt ${show(cols.attempt?.[i])} is not an integer >= 0`);
    }
    const jobSeed = intValue(cols.job_seed?.[i], null);
    if (jobSeed === undefined) {
      bad(i, fields.job_seed!, `job_seed ${show(cols.job_seed?.[i])} is not an integer`);
    }
    const completed = status === "completed";
    const reward = numberValue(cols.reward?.[i]);
    if (completed && (reward === undefined || reward === null || !Number.isFinite(reward))) {
      bad(
        i,
        fields.reward!,
        `reward ${show(cols.reward?.[i])} is not a finite number (a completed attempt needs one)`,
        "reward_incomplete",
      );
    }
    const rewards = rewardsOf(i, completed);
    const mask = maskOf(i);
    const injected = injectedOf(i);
    const extra = extraOf(i);
    const error = textAt("error", i, null);
    if (
      taskId == null || arm === null || status === null || sampleId === undefined ||
      sampleId < 0 || attempt === undefined || jobSeed === undefined || splitText == null ||
      round === undefined || checkpointId === undefined || error === undefined
    ) return null;
    return {
      file,
      row: i + 1,
      split: splitText,
      task_id: taskId,
      sample_id: sampleId,
      arm,
      round,
      checkpoint_id: checkpointId,
      attempt,
      status,
      reward: reward === undefined ? null : reward,
      rewards,
      job_seed: jobSeed,
      injected,
      mask,
      error,
      extra,
    };
  };
}

/** A row's reward components: finite numbers, required on a completed row. */
function componentReader(
  table: SourceTable,
  use: ColumnUse,
  bad: Bad,
): (i: number, completed: boolean) => Record<string, number> {
  const componentData = use.components.map(([name, column]) =>
    [name, column, table.data[column]!] as const
  );
  return (i, completed) => {
    const rewards: Record<string, number> = {};
    for (const [name, column, values] of componentData) {
      const raw = values[i];
      const x = numberValue(raw);
      if (x !== null && x !== undefined && Number.isFinite(x)) rewards[name] = x;
      else if (completed) {
        bad(i, column, `${name} ${show(raw)} is not a finite number`, "reward_incomplete");
      }
    }
    return rewards;
  };
}

/**
 * A row's mask from its 0/1 columns, or null when the table has none (or
 * a bit is not 0/1, an issue). Rows with the same bits share one
 * (read-only) mask object, found by the bits as an integer (up to 30
 * versions): far fewer objects for a large table, and the builder's
 * versions-present list is made once per distinct mask.
 */
function maskReader(
  table: SourceTable,
  use: ColumnUse,
  bad: Bad,
): (i: number) => Record<string, 0 | 1> | null {
  const maskData = use.mask.map(([version, column]) =>
    [version, column, table.data[column]!] as const
  );
  // A row's mask starts as a copy of this one (every version, in order): setting a bit then
  // changes a property instead of adding one.
  const maskTemplate: Record<string, 0 | 1> = {};
  for (const [version] of maskData) maskTemplate[version] = 0;
  const masks = maskData.length <= 30 ? new Map<number, Record<string, 0 | 1>>() : null;
  if (maskData.length === 0) return () => null;
  if (masks === null) {
    return (i) => {
      const maskRow = { ...maskTemplate };
      for (const [version, column, values] of maskData) {
        const raw = values[i];
        const bit = bitValue(raw);
        if (bit === null) {
          bad(i, column, `mask value ${show(raw)} is not 0 or 1`, "assignment_invalid");
        } else maskRow[version] = bit;
      }
      return maskRow;
    };
  }
  return (i) => {
    let bits = 0, valid = true;
    for (let j = 0; j < maskData.length; j++) {
      const [, column, values] = maskData[j]!;
      const raw = values[i];
      const bit = bitValue(raw);
      if (bit === null) {
        bad(i, column, `mask value ${show(raw)} is not 0 or 1`, "assignment_invalid");
        valid = false;
      } else bits |= bit << j;
    }
    if (!valid) return null;
    let maskRow = masks.get(bits);
    if (maskRow === undefined) {
      maskRow = { ...maskTemplate };
      for (let j = 0; j < maskData.length; j++) {
        maskRow[maskData[j]![0]] = ((bits >> j) & 1) as 0 | 1;
      }
      Object.freeze(maskRow);
      masks.set(bits, maskRow);
    }
    return maskRow;
  };
}

/** A row's injected ids from the list column, or null when the table has none. */
function injectedReader(
  table: SourceTable,
  use: ColumnUse,
  bad: Bad,
): (i: number) => string[] | null {
  const injected = use.injected;
  if (injected === null) return () => null;
  const values = table.data[injected]!;
  return (i) => {
    const raw = values[i];
    const list = listValue(raw);
    if (list !== undefined) return list;
    bad(
      i,
      injected,
      `injected ${show(raw)} is not a list of version ids (a JSON array of strings)`,
    );
    return null;
  };
}

/**
 * A row's columns that no field consumed, kept on its trace line: a
 * contract trace field read as the contract types it, a CSV column of
 * number text as numbers, any other value as JSON can hold it.
 */
function extraReader(
  table: SourceTable,
  consumed: ReadonlySet<string>,
  bad: Bad,
): (i: number) => Record<string, unknown> {
  const extraColumns = table.columns.filter((c) => !consumed.has(c));
  const numericText = new Set(
    table.format === "csv" || table.format === "tsv"
      ? extraColumns.filter((c) => table.data[c]!.every((v) => v === null || isNumberText(v)))
      : [],
  );
  const extraData = extraColumns.map((c) => [c, table.data[c]!] as const);
  const noExtra: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
  if (extraData.length === 0) return () => noExtra;
  return (i) => {
    const extra: Record<string, unknown> = {};
    for (const [c, values] of extraData) {
      const v = plainValue(values[i]);
      if (TRACE_FIELDS.has(c)) {
        // A contract trace field the contract types: read as that type, else an issue.
        const typed = typedTraceField(c, v);
        if (typed === undefined) bad(i, c, `${c} ${show(v)} is not ${TRACE_FIELDS.get(c)}`);
        else extra[c] = typed;
        continue;
      }
      extra[c] = numericText.has(c) && typeof v === "string" ? Number(v) : v;
    }
    return extra;
  };
}

/** Contract trace fields a table may carry unmapped, with the type the contract gives them. */
const TRACE_FIELDS = new Map([
  ["success", "true or false"],
  ["steps", "a number"],
  ["tokens", "an object {prompt, completion}"],
  ["provenance", "an object"],
]);

function typedTraceField(name: string, v: unknown): unknown {
  if (v === null) return null;
  if (name === "success") {
    if (v === true || v === "true" || v === "True" || v === "TRUE" || v === 1 || v === "1") {
      return true;
    }
    if (v === false || v === "false" || v === "False" || v === "FALSE" || v === 0 || v === "0") {
      return false;
    }
    return undefined;
  }
  if (name === "steps") {
    const x = numberValue(v);
    return x === undefined ? undefined : x;
  }
  let value = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if (name === "tokens") {
    const t = value as Record<string, unknown>;
    if (typeof t["prompt"] !== "number" || typeof t["completion"] !== "number") return undefined;
  }
  return value;
}

function show(v: unknown): string {
  if (v === null || v === undefined) return "(empty)";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return v.toString();
  try {
    return JSON.stringify(plainValue(v)) ?? String(v);
  } catch {
    return String(v);
  }
}

/** A map from the table's values to one of two contract values, with the accepted values. */
function valueMap<const T extends readonly [string, string]>(
  given: Readonly<Record<T[number], string | readonly string[]>> | undefined,
  names: T,
): ((v: string) => T[number] | null) & { accepted: [string, string] } {
  const lists = names.map((n) => {
    const g = given?.[n as T[number]];
    return g === undefined ? [n] : typeof g === "string" ? [g] : [...g];
  });
  const lookup = new Map<string, T[number]>();
  lists.forEach((l, k) => l.forEach((v) => lookup.set(v, names[k]!)));
  const f = (v: string) => lookup.get(v) ?? null;
  return Object.assign(f, { accepted: [lists[0]!.join("/"), lists[1]!.join("/")] }) as never;
}

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

function isNumberText(v: unknown): boolean {
  return typeof v === "string" && NUMBER_TEXT.test(v);
}

/** An id that is not a string: an integer as its digits, else undefined (not an id). */
function idText(v: unknown): string | undefined {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A value that is not a string as text: a number or a boolean as JSON writes it, else undefined. */
function valueText(v: unknown): string | undefined {
  if (typeof v === "bigint") return v.toString();
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") return String(v);
  return undefined;
}

/** A number; null for empty; undefined when the value is not a number. */
export function numberValue(v: unknown): number | null | undefined {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string") return NUMBER_TEXT.test(v) ? Number(v) : undefined;
  return undefined;
}

/** An integer; `fallback` for empty; undefined when not an integer. */
function intValue<F extends number | null>(v: unknown, fallback: F): number | F | undefined {
  const x = numberValue(v);
  if (x === null) return fallback;
  if (x === undefined || !Number.isSafeInteger(x)) return undefined;
  return x;
}

function bitValue(v: unknown): 0 | 1 | null {
  if (v === 0 || v === 1) return v;
  if (v === true || v === 1 || v === 1n || v === "1" || v === "true") return 1;
  if (v === false || v === 0 || v === 0n || v === "0" || v === "false") return 0;
  if (typeof v === "string") {
    const t = v.trim();
    if (t === "1" || t === "1.0") return 1;
    if (t === "0" || t === "0.0") return 0;
  }
  if (typeof v === "number" && (v === 0 || v === 1)) return v;
  return null;
}

/** A list of strings from an array or JSON array text; [] for empty; undefined when neither. */
function listValue(v: unknown): string[] | undefined {
  if (v === null || v === undefined || v === "") return [];
  let value: unknown = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(value) && ArrayBuffer.isView(value)) return undefined;
  if (!Array.isArray(value)) return undefined;
  if (!value.every((x) => typeof x === "string" && x.length > 0)) return undefined;
  return value as string[];
}

/** A typed array (any `ArrayBuffer` view but a `DataView`): indexed numbers or bigints. */
function isTypedArray(v: unknown): v is ArrayLike<number | bigint> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

/** A value as JSON can hold it (bigints as numbers, typed arrays as arrays). */
function plainValue(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plainValue);
  if (isTypedArray(v)) return Array.from(v, plainValue);
  if (ArrayBuffer.isView(v)) return []; // a DataView: no elements
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainValue(x)]));
  }
  return v;
}
