import { bankName } from "../../src/banks/catalogue.js";
import type { BankCode } from "../../src/banks/codes.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import type { SimExample } from "../../src/simulator/types.js";

// Examples for every bank, taken from the sandbox's seeded receipts: each one really succeeds with a
// sandbox key (chk_test_…), and test/api/openapi.test.ts sends every one of them.

export interface OpenApiExample {
  summary: string;
  value: unknown;
}

interface BankSample {
  bank: BankCode;
  example: SimExample;
  /** A well-formed reference the bank does not know. */
  unknownReference: string;
}

const SAMPLES: readonly BankSample[] = ALL_SIMULATED_BANKS.flatMap((bank) => {
  const example = bank.examples[0];
  return example ? [{ bank: bank.code, example, unknownReference: bank.notFound.transactionNumber }] : [];
});

/** POST /verify bodies: bank + transaction number for every bank, and the share link where it has one. */
export function verifyRequestExamples(): Record<string, OpenApiExample> {
  return Object.fromEntries(
    SAMPLES.flatMap(({ bank, example }) => {
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
export function shareLinkExamples(): Record<string, OpenApiExample> {
  return Object.fromEntries(
    SAMPLES.flatMap(({ bank, example }) =>
      example.shareUrl ? [[bank, { summary: bankName(bank), value: { receipt_url: example.shareUrl } }]] : [],
    ),
  );
}

/** POST /verify answers for Telebirr's sandbox receipt: 200 confirmed and duplicate, and the 404. */
export function verifyResultExamples(): {
  confirmed: OpenApiExample;
  duplicate: OpenApiExample;
  notFound: OpenApiExample;
} {
  const sample = SAMPLES.find((s) => s.bank === "telebirr");
  if (!sample) throw new Error("the simulator has no Telebirr receipt");
  const { bank, example, unknownReference } = sample;
  const { receipt } = example;
  const found = {
    exists: true,
    data: {
      bank,
      bank_name: bankName(bank),
      verification_id: "41",
      transaction_number: example.reference,
      source_url: null,
      verification_method: "official",
      receipt: {
        status: receipt.status,
        ...(receipt.transactionType ? { transaction_type: receipt.transactionType } : {}),
        amount: receipt.amount,
        currency: receipt.currency,
        transaction_date: receipt.transactionDate,
        payer_name: receipt.payerName,
        payer_account: receipt.payerAccount,
        receiver_name: receipt.receiverName,
        receiver_account: receipt.receiverAccount,
        description: receipt.description,
      },
    },
  };
  return {
    confirmed: {
      summary: "Confirmed",
      value: { success: true, duplicate: false, message: null, ...found },
    },
    duplicate: {
      summary: "Already verified in this branch",
      value: {
        success: false,
        duplicate: true,
        message: "This transaction was already verified.",
        ...found,
        data: { ...found.data, verification_id: "42" },
        existing_verification_id: 41,
        verified_at: "2026-11-20T07:16:02.000Z",
      },
    },
    notFound: {
      summary: "Not found",
      value: {
        success: false,
        exists: false,
        duplicate: false,
        message: "Transaction not found.",
        data: {
          bank,
          bank_name: bankName(bank),
          verification_id: null,
          transaction_number: unknownReference,
          source_url: null,
          verification_method: "official",
          receipt: {},
        },
      },
    },
  };
}
