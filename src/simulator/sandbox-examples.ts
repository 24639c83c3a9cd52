import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { ALL_SIMULATED_BANKS } from "./imitations.js";
import type { SimExample } from "./types.js";

/** A bank's sandbox receipt and a well-formed reference the bank does not know. */
export interface SandboxExample extends SimExample {
  unknownReference: string;
}

/**
 * Each bank's sandbox receipt (its first seeded one, the table of docs/api.md §5): what a sandbox key
 * verifies successfully. The composition root hands these to the API for its OpenAPI examples, so the API
 * documents the sandbox without importing it.
 */
export function sandboxExamples(): Record<BankCode, SandboxExample> {
  const entries = BANK_CODES.map((code) => {
    const bank = ALL_SIMULATED_BANKS[code];
    const example = bank.examples[0];
    if (!example) throw new Error(`the simulated ${code} has no seeded receipt`);
    return [code, { ...example, unknownReference: bank.notFound.transactionNumber }] as const;
  });
  return Object.fromEntries(entries) as Record<BankCode, SandboxExample>;
}
