/**
 * The gold firewall audit: gold items and the leak detectors.
 *
 * @module
 */
export { type GoldItem, goldItem, GoldItemSchema } from "./gold.ts";
export {
  deployableFields,
  type Finding,
  FIREWALL_CONVENTIONS,
  normalizeText,
  scanText,
} from "./scan.ts";
