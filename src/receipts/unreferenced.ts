import { bankName } from "../banks/catalogue.js";
import type { ReceiptReading } from "../banks/receipt-claim.js";
import { ValidationError } from "../errors.js";

/**
 * A text of a known bank without a reference or link of that bank: nothing can be looked up, so it is a
 * 422, but what the text does state (an amount, the two sides) travels with the error for the bot's answer.
 */
export class UnreferencedReceiptError extends ValidationError {
  constructor(
    field: string,
    readonly reading: ReceiptReading,
  ) {
    super({
      [field]: [`No ${bankName(reading.bank)} transaction number or receipt link was found in the receipt.`],
    });
  }

  /** Whether the text states something about a transfer worth repeating (a fragment may state nothing). */
  get statesTransfer(): boolean {
    const { amount, payerName, receiverName } = this.reading.receipt;
    return amount !== undefined || payerName !== undefined || receiverName !== undefined;
  }
}
