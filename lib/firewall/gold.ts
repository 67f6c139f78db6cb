/**
 * Gold items per task for the firewall audit (`gold.jsonl`): privileged
 * supervision that must never reach a deployable text.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

const oneOrMany = z.union([z.string(), z.array(z.string())]).optional();

/**
 * One line of gold.jsonl: `task_id`, the gold ASIN(s), product title(s)
 * and any other instance identifiers of the task. Unknown fields are kept.
 *
 * @example
 * ```ts
 * import { GoldItemSchema } from "./gold.ts";
 * import { ok } from "node:assert/strict";
 * ok(GoldItemSchema.safeParse({ task_id: "t1", gold_asin: "B08N5WRWNW", product_title: "Mug", identifiers: [] }).success);
 * ok(!GoldItemSchema.safeParse({ gold_asin: "B08N5WRWNW" }).success);
 * ```
 */
export const GoldItemSchema = z.looseObject({
  task_id: z.string().min(1),
  gold_asin: oneOrMany,
  product_title: oneOrMany,
  identifiers: z.array(z.string().min(1)).optional(),
});

/** A parsed gold line, values normalised to lists. */
export interface GoldItem {
  readonly task_id: string;
  readonly asins: readonly string[];
  readonly titles: readonly string[];
  readonly identifiers: readonly string[];
}

/** Normalises a parsed gold line. */
export function goldItem(value: z.infer<typeof GoldItemSchema>): GoldItem {
  const list = (
    v: string | string[] | undefined,
  ) => (v === undefined ? [] : typeof v === "string" ? [v] : v);
  return {
    task_id: value.task_id,
    asins: list(value.gold_asin),
    titles: list(value.product_title),
    identifiers: value.identifiers ?? [],
  };
}
