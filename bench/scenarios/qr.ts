import { type QrImageOptions, renderQrReceipt } from "../../fakes/qr-images.js";
import { encryptBoaQr } from "../../src/banks/boa/qr.js";
import { createQrDecoder } from "../../src/receipts/qr/decoder.js";
import { atLeast, atMost, type ScenarioResult } from "../figures.js";
import { median, percentile, round } from "../stats.js";

const ROUNDS = 5;

/** Every bank form a receipt QR code takes (docs/reading.md), as its code holds it. */
const CODES: Record<string, string> = {
  cbe: "https://mbreciept.cbe.com.et/v2-Lw8TqZ3vNc6RpXb2KmHd",
  telebirr: Buffer.from(Buffer.from('{"invoiceNo":"DFH51OFIED"}').toString("hex")).toString("base64"),
  amhara: JSON.stringify({ transactionId: "FT262507XG9T", creditAccountNo: "ETB1000217529647" }),
  boa: encryptBoaQr("bench-passphrase", [
    "1234567890123",
    "ABEBE KEBEDE",
    "1107.59",
    "FT26167ZVPCJ",
    "16/06/2026",
    "98765432",
    "SARA TADESSE",
  ]),
  dashen: "superappreceipt_88123.a9F3kLq",
  telebirrLink: "https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
};

/** How people send them, at Telegram's 1280 px. */
const VARIANTS: Record<string, QrImageOptions> = {
  clean: {},
  "rotated 10°": { rotateDeg: 10 },
  "phone photo": { rotateDeg: 3, blurPx: 1.2, shadow: 0.35, noise: 10, format: "jpeg", quality: 50 },
  "a tenth of the image": { qrShare: 0.1 },
  "two codes": { otherCode: "https://example.com/promo" },
};

/**
 * 12. QR codes: every bank form × every way it is sent, decoded from a 1280 px image; the share
 * decoded to the exact content, and the time to decode one image.
 */
export async function qr(): Promise<ScenarioResult> {
  const decoder = createQrDecoder();
  const images: { content: string; bytes: Buffer }[] = [];
  for (const content of Object.values(CODES)) {
    for (const options of Object.values(VARIANTS))
      images.push({ content, bytes: await renderQrReceipt(content, options) });
  }
  await decoder.decode(images[0]?.bytes ?? Buffer.alloc(0));
  let decoded = 0;
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const image of images) {
      const started = performance.now();
      const codes = await decoder.decode(image.bytes);
      samples.push(performance.now() - started);
      if (round === 0 && codes.includes(image.content)) decoded++;
    }
  }
  const share = round((decoded / images.length) * 100, 1);
  return {
    figures: [
      atMost("qr.median", 12, "QR decoding of a 1280 px image, median", round(median(samples), 1), "ms", 60),
      atMost(
        "qr.p99",
        12,
        "QR decoding of a 1280 px image, p99",
        round(percentile(samples, 99), 1),
        "ms",
        200,
      ),
      atLeast("qr.decoded", 12, `rendered QR images decoded exactly (${images.length})`, share, "%", 100),
    ],
    details: { images: images.length, rounds: ROUNDS },
  };
}
