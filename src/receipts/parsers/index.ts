import type { BankCode } from "../../banks/codes.js";
import type { ReceiptTextParser } from "../types.js";
import { amharaReceiptParser } from "./amhara.js";
import { awashReceiptParser } from "./awash.js";
import { boaReceiptParser } from "./boa.js";
import { cbeReceiptParser } from "./cbe.js";
import { cbebirrReceiptParser } from "./cbebirr.js";
import { dashenReceiptParser } from "./dashen.js";
import { mpesaReceiptParser } from "./mpesa.js";
import { sinqeeReceiptParser } from "./sinqee.js";
import { telebirrReceiptParser } from "./telebirr.js";
import { zemenReceiptParser } from "./zemen.js";

/** Every bank's receipt-text parser; a bank without one is a type error. */
export const RECEIPT_PARSERS = {
  cbe: cbeReceiptParser,
  telebirr: telebirrReceiptParser,
  dashen: dashenReceiptParser,
  awash: awashReceiptParser,
  boa: boaReceiptParser,
  zemen: zemenReceiptParser,
  cbebirr: cbebirrReceiptParser,
  mpesa: mpesaReceiptParser,
  sinqee: sinqeeReceiptParser,
  amhara: amharaReceiptParser,
} as const satisfies Record<BankCode, ReceiptTextParser>;
