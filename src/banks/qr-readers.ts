import { amharaQrReader } from "./amhara/qr.js";
import { createBoaQrReader } from "./boa/qr.js";
import { dashenQrReader } from "./dashen/qr.js";
import type { QrPayloadReader } from "./qr-reading.js";
import { telebirrQrReader } from "./telebirr/qr.js";

/**
 * The banks whose QR codes hold something other than a link (links, such as CBE's mbreciept URL, are read
 * by the banks' receipt readers). BOA's needs its passphrase; without one its codes are not read.
 */
export function qrPayloadReaders(options: { boaPassphrase?: string | undefined }): QrPayloadReader[] {
  return [
    telebirrQrReader,
    amharaQrReader,
    dashenQrReader,
    ...(options.boaPassphrase ? [createBoaQrReader(options.boaPassphrase)] : []),
  ];
}
