import type { BankCode } from "./codes.js";
import type { ReceiptClaim } from "./receipt-claim.js";

/**
 * What one bank makes of a QR code's text: the receipt it names, a sentence saying why such a code
 * cannot be checked (the cashier is told what to send instead), or null when the code is not the bank's.
 */
export type QrReading =
  | { kind: "claim"; claim: ReceiptClaim }
  | { kind: "unusable"; bank: BankCode; message: string };

export interface QrPayloadReader {
  readonly bank: BankCode;
  read(content: string): QrReading | null;
}

/** A claim of a reference read from a QR code: the code states no receipt fields of its own. */
export function qrClaim(
  bank: BankCode,
  transactionNumber: string,
  receipt: ReceiptClaim["receipt"] = {},
): QrReading {
  return { kind: "claim", claim: { bank, transactionNumber, accountNumber: null, shareUrl: null, receipt } };
}
