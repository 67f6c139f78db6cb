/**
 * The gold firewall audit: gold items, the leak detectors, and the audit's
 * bundle (the library call, its files, tables and report section).
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
export {
  type FirewallAudit,
  firewallAudit,
  type FirewallDocument,
  type FirewallFinding,
  type FirewallInput,
  firewallScan,
  type TextLine,
} from "./audit.ts";
export { firewallFiles } from "./files.ts";
export { firewallTables } from "./tables.ts";
export { firewallSection } from "./section.ts";
export * from "./bundle.ts";
