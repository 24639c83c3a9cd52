import type { BankInfo } from "./catalogue.js";
import type { BankCode } from "./codes.js";
import type { QrPayloadReader } from "./qr-reading.js";
import type { BankReceiptParser } from "./receipt-claim.js";
import type { BankAdapter } from "./types.js";

/**
 * One bank as the service knows it, exported by its folder's bank.ts: what GET /banks says of it, its
 * adapter (lookups and the bank's answers), its reader of receipts, SMS and links, and where its QR codes
 * hold more than a link, their reader. A new bank is its folder, its code in the contract's list
 * (codes.ts) and one line in banks.ts; its imitation is registered with the simulator
 * (src/simulator/imitations.ts), which the service does not load.
 */
export interface BankModule<K extends BankCode = BankCode> {
  code: K;
  info: BankInfo;
  createAdapter: (options?: never) => BankAdapter;
  receipts: BankReceiptParser;
  /** The reader of QR codes that hold more than a link; null without what it needs (BOA's passphrase). */
  qr?: (options: { boaPassphrase?: string | undefined }) => QrPayloadReader | null;
}
