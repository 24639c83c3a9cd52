import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import type { LookupTarget, Receipt } from "../../src/banks/types.js";
import { NO_RECEIPT, pickReceiptColumns, type VerificationRecord } from "../../src/db/verification-record.js";
import { OUTCOME_MESSAGES, VERIFICATION_METHODS, type VerificationOutcome } from "../../src/engine/types.js";
import { presentVerificationResult } from "../presenters.js";

// Examples for every bank, taken from the sandbox's seeded receipts (handed to createApi by the composition
// root, src/compose.ts, as `sandboxExamples`): each one really succeeds with a sandbox key (chk_test_…), and
// test/api/openapi.test.ts sends every one of them.

export interface OpenApiExample {
  summary: string;
  value: unknown;
}

/** One bank's sandbox receipt, as the examples need it. */
export interface SandboxExample {
  /** What a caller supplies (reference + account/phone, or the token of a token link). */
  target: LookupTarget;
  /** A share URL that leads to the same receipt, where the bank has share links. */
  shareUrl?: string | undefined;
  /** The bank's own reference for this receipt. */
  reference: string;
  receipt: Receipt;
  /** A well-formed reference the bank does not know. */
  unknownReference: string;
}

/** Every bank's sandbox receipt, by bank code. */
export type SandboxExamples = Readonly<Record<BankCode, SandboxExample>>;

interface BankSample {
  bank: BankCode;
  example: SandboxExample;
}

/** In catalogue order. */
function samplesOf(examples: SandboxExamples): BankSample[] {
  return BANK_CODES.map((bank) => ({ bank, example: examples[bank] }));
}

/** POST /verify bodies: bank + transaction number for every bank, and the share link where it has one. */
export function verifyRequestExamples(examples: SandboxExamples): Record<string, OpenApiExample> {
  return Object.fromEntries(
    samplesOf(examples).flatMap(({ bank, example }) => {
      const { target } = example;
      const byReference: [string, OpenApiExample] = [
        `${bank}_reference`,
        {
          summary: `${bankName(bank)}: transaction number`,
          value: {
            bank,
            transaction_number: target.token ?? target.transactionNumber,
            ...(target.account ? { account_number: target.account } : {}),
          },
        },
      ];
      if (!example.shareUrl) return [byReference];
      return [
        byReference,
        [
          `${bank}_link`,
          { summary: `${bankName(bank)}: share link`, value: { receipt_url: example.shareUrl } },
        ],
      ];
    }),
  );
}

/** POST /verify/parse-url bodies: one share link per bank that has them. */
export function shareLinkExamples(examples: SandboxExamples): Record<string, OpenApiExample> {
  return Object.fromEntries(
    samplesOf(examples).flatMap(({ bank, example }) =>
      example.shareUrl ? [[bank, { summary: bankName(bank), value: { receipt_url: example.shareUrl } }]] : [],
    ),
  );
}

/**
 * POST /verify answers for Telebirr's sandbox receipt, made by the presenter the route uses: 200 confirmed and
 * duplicate, and the 404.
 */
export function verifyResultExamples(examples: SandboxExamples): {
  confirmed: OpenApiExample;
  duplicate: OpenApiExample;
  notFound: OpenApiExample;
} {
  const bank = "telebirr";
  const { reference, receipt, unknownReference } = examples[bank];
  const first: VerificationRecord = {
    id: 41,
    branchId: 1,
    bank,
    transactionNumber: reference,
    accountNumber: null,
    success: true,
    exists: true,
    message: null,
    ...pickReceiptColumns(receipt),
    sourceUrl: null,
    receiptToken: null,
    sandbox: false,
    verificationMethod: VERIFICATION_METHODS.reference,
    sourceType: "api",
    sourceLabel: "Front desk",
    bankAnswer: null,
    createdAt: new Date("2026-11-20T07:16:02.000Z"),
    deletedAt: null,
  };
  const again = { ...first, id: 42, success: false, message: OUTCOME_MESSAGES.duplicate };
  const unknown = {
    ...first,
    id: 43,
    transactionNumber: unknownReference,
    success: false,
    exists: false,
    message: OUTCOME_MESSAGES.not_found,
    ...NO_RECEIPT,
  };
  const answer = (outcome: VerificationOutcome) => presentVerificationResult(outcome).body;
  return {
    confirmed: {
      summary: "Confirmed",
      value: answer({ kind: "confirmed", record: first, receiverNotSaved: false }),
    },
    duplicate: {
      summary: "Already verified in this branch",
      value: answer({ kind: "duplicate", record: again, existing: first }),
    },
    notFound: { summary: "Not found", value: answer({ kind: "not_found", record: unknown }) },
  };
}
