import type { QrPayloadReader } from "../qr-reading.js";

// Dashen's in-app success screen shows a QR of an internal token (`superappreceipt_<id>.<verifier>`,
// docs/banks.md §2.3) that no public endpoint resolves: the cashier is told what to send instead.

const TOKEN = /^superappreceipt_[A-Za-z0-9-]+\.[A-Za-z0-9_-]+$/;

export const DASHEN_APP_QR_MESSAGE =
  "Dashen Bank's in-app QR code cannot be checked. Send the receipt link from the Dashen SMS or the 16-character FT Ref.";

export const dashenQrReader: QrPayloadReader = {
  bank: "dashen",
  read(content) {
    return TOKEN.test(content.trim())
      ? { kind: "unusable", bank: "dashen", message: DASHEN_APP_QR_MESSAGE }
      : null;
  },
};
