/**
 * Inputs of the demo's gold firewall audit (`data/demo/firewall/`): gold
 * items per task, deployable chunk texts and evidence cards, with a few
 * planted leaks listed in `planted.json` (the firewall test checks that
 * each is found and nothing else is).
 *
 * @module
 */
import { sha256Hex } from "../core/sha256.ts";

const encoder = new TextEncoder();

/** Gold items of four validation tasks (privileged: only the Failure Analyst sees them). */
const GOLD = [
  {
    task_id: "ws-val-0042",
    gold_asin: "B08N5WRWNW",
    product_title: "Lumina Ceramic Pour-Over Coffee Dripper Set, Matte White",
    identifiers: ["ord-5512-ax"],
  },
  {
    task_id: "ws-val-0117",
    gold_asin: "B07FZ8S74R",
    product_title: "Northpeak Men's Fleece Pullover Hoodie - Navy, Large",
    identifiers: [],
  },
  {
    task_id: "ws-val-0231",
    gold_asin: "B09G9FPHY6",
    product_title: "Aqualine Stainless Steel Water Bottle 32 oz Vacuum Insulated",
    identifiers: ["sess-9f3c2e"],
  },
  {
    task_id: "ws-val-0305",
    gold_asin: "B01N0XPBBN",
    product_title: "Brightleaf Organic Green Tea Bags, 100 Count Variety Pack",
    identifiers: [],
  },
];

const CHUNKS = [
  {
    version_id: "unit-price-normalisation.v1",
    text:
      "When items come in different pack sizes, compare the price per unit before checking it against the ceiling.",
  },
  {
    version_id: "size-chart-check.v1",
    text:
      "For apparel and shoes, open the size chart and map the requested size before selecting the size option.",
  },
  {
    version_id: "variant-lookup.v1",
    text:
      "If the requested color is missing from the swatches, open item B0C7KX21QZ style variant pages and read each option label.",
  },
  {
    version_id: "dripper-preference.v1",
    text:
      "For pour-over requests, prefer the lumina ceramic pour over coffee dripper set when it is in stock.",
  },
  {
    version_id: "query-formulation.v1",
    text:
      "Build the first search query from the product type and the two most specific hard constraints; leave soft preferences out of the query.",
  },
];

const failure = (
  card_id: string,
  privileged: Record<string, string>,
  deployable: Record<string, string | null>,
) => ({
  card_id,
  kind: "failure",
  status: "PROPOSE_ADD",
  privileged_audit: privileged,
  deployable_abstraction: deployable,
});

const CARDS = [
  failure("fc-0301", {
    gold_asin: "B08N5WRWNW",
    chosen_asin: "B08N5XQ1ZT",
    failure_surface: "variant price",
    earliest_divergence: "step 6: kept the default variant price",
    oracle_comparison:
      "gold Lumina Ceramic Pour-Over Coffee Dripper Set, Matte White is within budget",
  }, {
    failure_mechanism: "default variant price checked instead of the target variant",
    applicable_when: "the item has several variants with different prices",
    observable_trigger: "the price shown changes after selecting an option",
    corrective_procedure: "re-read the price after selecting the requested variant",
    verification_step: "compare the variant price with the ceiling before buying",
    target_chunk_id: "variant-price-check",
    proposed_content: null,
  }),
  failure("fc-0302", {
    gold_asin: "B07FZ8S74R",
    chosen_asin: "B07FZ91KQ2",
    failure_surface: "size option",
    earliest_divergence: "step 4: selected size M",
  }, {
    failure_mechanism: "size requested but size chart not mapped",
    applicable_when: "apparel with a size option",
    observable_trigger: "as in task ws-val-0117, the size names differ from the requested size",
    corrective_procedure: "open the size chart and map the requested size",
    verification_step: "the selected option matches the mapped size",
    target_chunk_id: null,
    proposed_content: "Map the requested size with the size chart before selecting it.",
  }),
  failure("fc-0303", {
    gold_asin: "B09G9FPHY6",
    chosen_asin: "B09G9KWX3L",
    failure_surface: "pack quantity",
  }, {
    failure_mechanism: "pack count ignored for multi-pack requests",
    applicable_when: "the instruction names a count or pack size",
    observable_trigger: "the item title lists a pack count",
    corrective_procedure: "check the pack quantity of the chosen variant (seen in sess-9f3c2e)",
    verification_step: "the pack quantity equals the requested count",
    target_chunk_id: null,
    proposed_content: null,
  }),
  {
    card_id: "sc-0401",
    kind: "success",
    source_trajectory_id: "tr-000913",
    mechanism: "constraint checklist before browsing",
    applicable_when: "instructions with three or more constraints",
    observed_evidence: "the agent listed every constraint and ticked them off on the item page",
    decisive_behavior: "rejected the first result because one option was missing",
    generalizable_lesson: "check each explicit constraint on the item page before buying",
    related_chunk_ids: ["explicit-constraint-checklist"],
    confidence: 0.8,
  },
  {
    card_id: "sc-0402",
    kind: "success",
    source_trajectory_id: "tr-000977",
    mechanism: "variant price re-check",
    applicable_when: "items with per-variant prices",
    observed_evidence: "opened B08N5WRWNW, switched to the requested variant and re-read its price",
    decisive_behavior: "re-read the price after switching variants",
    generalizable_lesson: "after switching variants, re-read the price",
    related_chunk_ids: ["variant-price-check"],
    confidence: 0.7,
  },
  {
    card_id: "sc-0403",
    kind: "success",
    source_trajectory_id: "tr-001024",
    mechanism: "unit price comparison",
    applicable_when: "items in different sizes or pack counts",
    observed_evidence: "compared price per ounce across sizes",
    decisive_behavior: "bought the AQUALINE stainless-steel water bottle (32 oz, vacuum insulated)",
    generalizable_lesson: "compare the price per unit across pack sizes",
    related_chunk_ids: ["unit-price-normalisation"],
    confidence: 0.6,
  },
];

/** The planted leaks: file, line, field and code of each (what the firewall must find). */
const PLANTED = [
  { file: "chunks.jsonl", line: 3, field: "text", code: "gold_asin", span: "B0C7KX21QZ" },
  {
    file: "chunks.jsonl",
    line: 4,
    field: "text",
    code: "title_leak",
    span: "lumina ceramic pour over coffee dripper set",
  },
  {
    file: "cards.jsonl",
    line: 2,
    field: "deployable_abstraction.observable_trigger",
    code: "task_id_leak",
    span: "ws-val-0117",
  },
  {
    file: "cards.jsonl",
    line: 3,
    field: "deployable_abstraction.corrective_procedure",
    code: "instance_identifier",
    span: "sess-9f3c2e",
  },
  {
    file: "cards.jsonl",
    line: 5,
    field: "observed_evidence",
    code: "gold_asin",
    span: "B08N5WRWNW",
  },
  {
    file: "cards.jsonl",
    line: 6,
    field: "decisive_behavior",
    code: "title_leak",
    span: "aqualine stainless steel water bottle 32 oz vacuum insulated",
  },
];

/**
 * The firewall demo files, keyed by path relative to data/demo/.
 *
 * @returns gold.jsonl, chunks.jsonl, cards.jsonl and planted.json under firewall/.
 */
export function firewallDemoFiles(): Record<string, string> {
  const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  return {
    "firewall/gold.jsonl": jsonl(GOLD),
    "firewall/chunks.jsonl": jsonl(
      CHUNKS.map((c) => ({ ...c, text_sha256: sha256Hex(encoder.encode(c.text)) })),
    ),
    "firewall/cards.jsonl": jsonl(CARDS),
    "firewall/planted.json": JSON.stringify(
      {
        format: "gatelab.demo-firewall-planted/v1",
        note:
          "every planted leak of the demo's deployable texts; the privileged_audit blocks of the failure cards hold gold on purpose and are not deployable",
        leaks: PLANTED,
      },
      null,
      2,
    ) + "\n",
  };
}
