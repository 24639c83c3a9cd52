import type { QrPayloadReader } from "../qr-reading.js";
import { qrClaim } from "../qr-reading.js";
import { createTelebirrAdapter } from "./adapter.js";

// The telebirr SuperApp receipt's QR (docs/banks.md §2.2): base64 of a hex string of bytes of a text that
// holds the invoice number, which is the receipt's reference.

const adapter = createTelebirrAdapter();
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export const telebirrQrReader: QrPayloadReader = {
  bank: "telebirr",
  read(content) {
    const compact = content.trim();
    if (compact.length < 16 || !BASE64.test(compact)) return null;
    const hex = Buffer.from(compact, "base64").toString("latin1").trim();
    if (!HEX.test(hex)) return null;
    const text = Buffer.from(hex, "hex").toString("utf8");
    for (const [word] of text.matchAll(/(?<![A-Za-z0-9])[A-Z0-9]{10}(?![A-Za-z0-9])/g)) {
      if (!/[A-Z]/.test(word) || !/\d/.test(word)) continue;
      const reference = adapter.normalizeReference(word);
      if (!adapter.validate({ transactionNumber: reference, account: null, token: null })) {
        return qrClaim("telebirr", reference);
      }
    }
    return null;
  },
};
