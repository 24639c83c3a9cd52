import type { BankModule } from "./bank-module.js";
import { BANKS } from "./banks.js";
import { BANK_CODES } from "./codes.js";
import type { QrPayloadReader } from "./qr-reading.js";

/**
 * The banks whose QR codes hold something other than a link (links, such as CBE's mbreciept URL, are read
 * by the banks' receipt readers), from their folders' bank.ts. BOA's needs its passphrase; without one its
 * codes are not read.
 */
export function qrPayloadReaders(options: { boaPassphrase?: string | undefined }): QrPayloadReader[] {
  return BANK_CODES.flatMap((code) => {
    const bank: BankModule = BANKS[code];
    return bank.qr?.(options) ?? [];
  });
}
