import { z } from "zod";
import { t24References } from "../../reading/t24.js";
import { type QrPayloadReader, qrClaim } from "../qr-reading.js";
import { QR_KEYS } from "./labels.js";

// Amhara Bank's receipt QR (docs/banks.md §2.10): bare JSON {"transactionId":"FT…","creditAccountNo":"ETB…"}.

const PAYLOAD = z.object({ [QR_KEYS.reference]: z.string() });

export const amharaQrReader: QrPayloadReader = {
  bank: "amhara",
  read(content) {
    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch {
      return null;
    }
    const payload = PAYLOAD.safeParse(json);
    if (!payload.success) return null;
    const reference = t24References(payload.data[QR_KEYS.reference], ["FT"])[0];
    return reference ? qrClaim("amhara", reference) : null;
  },
};
