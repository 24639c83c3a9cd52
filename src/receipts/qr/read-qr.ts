import { qrPayloadReaders } from "../../banks/qr-readers.js";
import type { QrPayloadReader, QrReading } from "../../banks/qr-reading.js";
import { RECEIPT_PARSERS } from "../../banks/receipt-parsers.js";
import { findUrls } from "../../reading/text.js";
import { detectBank } from "../detect.js";
import { createQrDecoder } from "./decoder.js";

export interface QrReceiptReader {
  /** What the image's QR codes name: the first receipt, else why a bank's code cannot be checked, else null. */
  read(image: Uint8Array): Promise<QrReading | null>;
}

/**
 * Reads every QR code of an image as a bank link (any bank) or as a bank's own payload. BOA's codes need the
 * passphrase of BANK_BOA_QR_KEY; without it they name nothing.
 */
export function createQrReceiptReader(options: { boaPassphrase?: string | undefined } = {}): QrReceiptReader {
  const decoder = createQrDecoder();
  const payloads = qrPayloadReaders(options);
  return {
    async read(image) {
      let unusable: QrReading | null = null;
      for (const content of await decoder.decode(image)) {
        const reading = linkReading(content) ?? payloadReading(content, payloads);
        if (reading?.kind === "claim") return reading;
        unusable ??= reading;
      }
      return unusable;
    },
  };
}

/** A code holding one of a supported bank's receipt links (CBE's mbreciept URL, a telebirr receipt URL…). */
function linkReading(content: string): QrReading | null {
  if (findUrls(content).length === 0) return null;
  const detection = detectBank(content);
  if (detection.kind !== "detected") return null;
  const claim = RECEIPT_PARSERS[detection.bank].parse(content);
  return claim?.shareUrl ? { kind: "claim", claim } : null;
}

function payloadReading(content: string, payloads: readonly QrPayloadReader[]): QrReading | null {
  for (const reader of payloads) {
    const reading = reader.read(content);
    if (reading) return reading;
  }
  return null;
}
