import type { BankCode } from "../src/banks/codes.js";
import { simulatedTelebirr } from "../src/banks/telebirr/imitation.js";
import { ALL_SIMULATED_BANKS } from "../src/simulator/imitations.js";
import type { SimRequest, SimulatedBank } from "../src/simulator/types.js";

// The seeded simulator knows three telebirr receipts, and a receipt is confirmed once per branch: every
// later verification of it is a duplicate that never reaches the bank. Throughput and latency need a
// fresh receipt per request, so the bench answers any reference it made up with the page of the seeded
// sandbox receipt, its reference swapped in: same HTML, same size, same parsing work as a real one.

const TEMPLATE_REFERENCE = "DFH51OFIED";
/** Bench references: "B", a one-letter run tag, eight base-36 digits (telebirr's 10-character shape). */
const BENCH_REFERENCE = /^B[A-Z][0-9A-Z]{8}$/;

export const TELEBIRR_LOOKUP_ORIGIN = "transactioninfo.ethiotelecom.et:443";

/** The made-up reference number `index` of run `tag` (one letter A–Z). */
export function benchReference(tag: string, index: number): string {
  return `B${tag}${index.toString(36).toUpperCase().padStart(8, "0")}`;
}

/** The request path at the simulator that serves a telebirr receipt, as the service's client sends it. */
export function telebirrReceiptPath(reference: string): string {
  return `/${TELEBIRR_LOOKUP_ORIGIN}/receipt/${reference}`;
}

/** The simulator's banks, telebirr answering bench references too. */
export async function benchBanks(): Promise<Record<BankCode, SimulatedBank>> {
  const request: SimRequest = {
    origin: TELEBIRR_LOOKUP_ORIGIN,
    method: "GET",
    path: `/receipt/${TEMPLATE_REFERENCE}`,
    query: new URLSearchParams(),
    headers: {},
  };
  const template = await simulatedTelebirr.handle(request);
  const html = String(template.body);
  if (template.status !== 200 || !html.includes(TEMPLATE_REFERENCE)) {
    throw new Error("the simulator's telebirr sandbox receipt has changed; update bench/sim-bank.ts");
  }
  const telebirr: SimulatedBank = {
    ...simulatedTelebirr,
    handle(req) {
      const reference = /^\/receipt\/([^/?]+)$/.exec(req.path)?.[1] ?? "";
      if (req.method !== "GET" || !BENCH_REFERENCE.test(reference)) return simulatedTelebirr.handle(req);
      return { ...template, body: html.replaceAll(TEMPLATE_REFERENCE, reference) };
    },
  };
  return { ...ALL_SIMULATED_BANKS, telebirr };
}
