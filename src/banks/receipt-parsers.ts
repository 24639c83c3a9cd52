import { readSms, type SmsOptions } from "../reading/sms.js";
import { prepareReceiptText } from "../reading/text.js";
import { amharaReceiptParser } from "./amhara/receipt.js";
import { awashReceiptParser } from "./awash/receipt.js";
import { boaReceiptParser } from "./boa/receipt.js";
import { cbeReceiptParser } from "./cbe/receipt.js";
import { cbebirrReceiptParser } from "./cbebirr/receipt.js";
import type { BankCode } from "./codes.js";
import { dashenReceiptParser } from "./dashen/receipt.js";
import { mpesaReceiptParser } from "./mpesa/receipt.js";
import type { ReceiptTextParser } from "./receipt-claim.js";
import { sinqeeReceiptParser } from "./sinqee/receipt.js";
import { telebirrReceiptParser } from "./telebirr/receipt.js";
import { zemenReceiptParser } from "./zemen/receipt.js";

/**
 * A bank's reader of its own documents (labels, links, references), completed by the generic SMS reader:
 * what an SMS says about the money (amount less fees, date, both sides) is read one way for every bank,
 * over what the bank's reader made of the message; the bank's reading fills in what the SMS reader left.
 */
function reader(parser: ReceiptTextParser, sms: SmsOptions = {}): ReceiptTextParser {
  return {
    bank: parser.bank,
    issuer: parser.issuer,
    detect: (text) => parser.detect(prepareReceiptText(text)),
    parse(text) {
      const prepared = prepareReceiptText(text);
      const claim = parser.parse(prepared);
      if (!claim) return null;
      const message = readSms(prepared, { ...sms, reference: claim.transactionNumber });
      return { ...claim, receipt: { ...claim.receipt, ...message } };
    },
  };
}

/** Every bank's receipt-text reader; a bank without one is a type error. */
export const RECEIPT_PARSERS = {
  cbe: reader(cbeReceiptParser),
  telebirr: reader(telebirrReceiptParser),
  dashen: reader(dashenReceiptParser),
  awash: reader(awashReceiptParser),
  boa: reader(boaReceiptParser),
  zemen: reader(zemenReceiptParser),
  cbebirr: reader(cbebirrReceiptParser),
  mpesa: reader(mpesaReceiptParser),
  sinqee: reader(sinqeeReceiptParser),
  amhara: reader(amharaReceiptParser),
} as const satisfies Record<BankCode, ReceiptTextParser>;
