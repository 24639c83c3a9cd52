import { readCommonLabels } from "../reading/common-labels.js";
import { plausibleReceipt } from "../reading/plausible.js";
import { readSms } from "../reading/sms.js";
import { readDate } from "../reading/t24.js";
import { prepareReceiptText } from "../reading/text.js";
import { BANKS } from "./banks.js";
import { BANK_CODES, type BankCode } from "./codes.js";
import type { BankReceiptParser, ReceiptReading, ReceiptTextParser } from "./receipt-claim.js";
import { createBankAdapters } from "./registry.js";

const ADAPTERS = createBankAdapters();

/**
 * A bank's reader of its own documents (labels, links, references), completed by the generic readers:
 * what an SMS says about the money (amount less fees, date, both sides) is read one way for every bank,
 * over what the bank's reader made of the message; the labels every bank shares ("Amount", "Payer
 * Account", "Transaction ID") fill what the bank's reader left empty. When the bank's reader finds no
 * reference of its own, it takes the labelled one.
 */
function reader(parser: BankReceiptParser): ReceiptTextParser {
  function read(text: string): ReceiptReading {
    const prepared = prepareReceiptText(text);
    const common = readCommonLabels(prepared);
    const reading = parser.parse(prepared, printedReference(parser.bank, common.references));
    const message = readSms(prepared, {
      reference: reading.transactionNumber,
      debitHoldsFees: parser.debitHoldsFees === true,
    });
    // Day or month first: the day the reference encodes decides where both are valid (4/10 or 10/4).
    const date = common.dateText
      ? readDate(common.dateText, "dmy", reading.reference ?? reading.transactionNumber)
      : null;
    const receipt = {
      ...common.receipt,
      ...(date ? { transactionDate: date } : {}),
      ...plausibleReceipt({ ...reading.receipt, ...message }),
    };
    return {
      ...reading,
      accountNumber: reading.accountNumber ?? parser.lookupAccount?.(receipt) ?? null,
      receipt,
    };
  }
  const wholeFromImage =
    parser.wholeFromImage ??
    (parser.fixedShapes ? (reference: string) => isBankReference(parser.bank, reference) : undefined);
  return {
    bank: parser.bank,
    issuer: parser.issuer,
    ...(parser.lookupAccount ? { lookupAccount: parser.lookupAccount } : {}),
    ...(wholeFromImage ? { wholeFromImage } : {}),
    detect: (text) => parser.detect(prepareReceiptText(text)),
    read,
    parse(text) {
      const reading = read(text);
      const { transactionNumber } = reading;
      return transactionNumber ? { ...reading, transactionNumber } : null;
    },
  };
}

/**
 * The labelled reference to fall back on: the first one the bank's adapter accepts as its own, else the
 * first printed one that looks like an id. A receipt that prints its reference is readable even when the
 * reference cannot be looked up (an Awash Transaction ID, an unknown shape); verifying it then explains
 * what is needed instead.
 */
function printedReference(bank: BankCode, candidates: readonly string[]): string | null {
  const adapter = ADAPTERS[bank];
  for (const candidate of candidates) {
    // A word in ordinary case is the next label or a heading ("Transaction"), whatever its length.
    if (!/\d/.test(candidate) && candidate !== candidate.toUpperCase()) continue;
    if (isBankReference(bank, candidate)) return adapter.normalizeReference(candidate);
  }
  const printed = candidates.find((candidate) => PRINTED_ID.test(candidate));
  return printed ? adapter.normalizeReference(printed) || printed : null;
}

/** Whether the bank's adapter takes `reference` as one of its references (an account may still be needed). */
export function isBankReference(bank: BankCode, reference: string): boolean {
  const adapter = ADAPTERS[bank];
  const transactionNumber = adapter.normalizeReference(reference);
  const problem = adapter.validate({ transactionNumber, account: null, token: null });
  return transactionNumber !== "" && problem?.field !== "transaction_number";
}

/** A printed id: letters, digits and dashes, with a digit, 5 to 31 characters. */
const PRINTED_ID = /^(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{4,30}$/;

/** Every bank's receipt-text reader, from its folder's bank.ts. */
export const RECEIPT_PARSERS: Readonly<Record<BankCode, ReceiptTextParser>> = Object.fromEntries(
  BANK_CODES.map((code) => [code, reader(BANKS[code].receipts)]),
) as Record<BankCode, ReceiptTextParser>;
