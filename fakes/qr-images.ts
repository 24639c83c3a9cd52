/**
 * Renders receipt images that carry QR codes, for the QR tests and the bench: a receipt-like page with the
 * code in a corner, at the sizes people send (Telegram delivers photos at most 1280 px on the long side),
 * optionally degraded like a phone photo (tilt, blur, uneven light, noise, a low-quality JPEG), with a
 * second, unrelated code, or with part of the code torn away. Deterministic.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas";
import QRCode from "qrcode";
import { blurred, degrade, rotated } from "./receipt-images.js";

export interface QrImageOptions {
  /** Long side of the image in pixels. Default 1280 (Telegram's photo size). */
  width?: number;
  /** The code's side as a share of the image's width. Default 0.25; a tenth is a QR corner of a page. */
  qrShare?: number;
  rotateDeg?: number;
  blurPx?: number;
  shadow?: number;
  noise?: number;
  /** A second code elsewhere on the page (an advert, a wallet's own). */
  otherCode?: string;
  /** Share of the code's side painted over in its middle (a torn or stained print); 0.4 breaks any code. */
  damage?: number;
  format?: "png" | "jpeg" | "webp";
  quality?: number;
  /** Transparent background (a screenshot with alpha). */
  transparent?: boolean;
}

export async function renderQrReceipt(content: string, options: QrImageOptions = {}): Promise<Buffer> {
  const width = options.width ?? 1280;
  const height = Math.round(width * 1.3);
  const page = createCanvas(width, height);
  const ctx = page.getContext("2d");
  if (!options.transparent) {
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
  }
  ctx.fillStyle = "#222222";
  ctx.font = `${Math.round(width / 40)}px "DejaVu Sans"`;
  for (let i = 0; i < 12; i++)
    ctx.fillText(
      `Receipt line ${i + 1}   ETB ${(i * 137.5).toFixed(2)}`,
      width * 0.06,
      width * 0.1 + i * width * 0.05,
    );
  const side = Math.round(width * (options.qrShare ?? 0.25));
  await drawCode(ctx, content, width - side - width * 0.06, height - side - width * 0.06, side);
  if (options.damage) {
    const hole = side * options.damage;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(
      width - side - width * 0.06 + (side - hole) / 2,
      height - side - width * 0.06 + (side - hole) / 2,
      hole,
      hole,
    );
  }
  if (options.otherCode)
    await drawCode(ctx, options.otherCode, width * 0.06, height - side - width * 0.06, side);

  let out = page;
  if (options.rotateDeg) out = rotated(out, options.rotateDeg, "#ffffff");
  if (options.blurPx) out = blurred(out, options.blurPx);
  if (options.shadow || options.noise) degrade(out, options.shadow ?? 0, options.noise ?? 0, 7);
  const format = options.format ?? "png";
  return format === "png" ? out.encode("png") : out.encode(format, options.quality ?? 80);
}

async function drawCode(
  ctx: ReturnType<ReturnType<typeof createCanvas>["getContext"]>,
  content: string,
  x: number,
  y: number,
  side: number,
): Promise<void> {
  const png = await QRCode.toBuffer(content, { margin: 2, width: side, errorCorrectionLevel: "M" });
  ctx.drawImage(await loadImage(png), x, y, side, side);
}
