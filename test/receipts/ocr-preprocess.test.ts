import { createCanvas, loadImage } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { prepareForOcr } from "../../src/receipts/ocr/preprocess.js";
import { telegramImage } from "../fixtures/photo-reading.js";
import { PHOTO_CASES, TELEGRAM_LONG_SIDE } from "../fixtures/photos/cases.js";

/** The prepared image's size and the share of its pixels lighter than mid-grey. */
async function measure(png: Buffer): Promise<{ width: number; height: number; light: number }> {
  const image = await loadImage(png);
  const ctx = createCanvas(image.width, image.height).getContext("2d");
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  let light = 0;
  for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 0) > 128) light++;
  return { width: image.width, height: image.height, light: light / (data.length / 4) };
}

describe("preparing a photo for OCR", () => {
  it("crops a white page lying on a dark table to the page, dark text on light, not inverted", async () => {
    // Variant 2 photos of the rendered set lie on a dark surface: most of the frame is darker than mid-grey.
    const photo = PHOTO_CASES.find((c) => c.id === "cbe-photo-2");
    if (!photo) throw new Error("cbe-photo-2 is missing from the photo set");
    const upload = await telegramImage(photo, TELEGRAM_LONG_SIDE);
    const whole = await measure(upload);
    expect(whole.light).toBeLessThan(0.5);
    const prepared = await measure(await prepareForOcr(upload, { maxPixels: 40_000_000 }));
    // The frame is landscape (variant 2), the receipt portrait: cropped, the page's proportions are left.
    expect(whole.width).toBeGreaterThan(whole.height);
    expect(prepared.height).toBeGreaterThan(prepared.width);
    expect(prepared.light).toBeGreaterThan(0.8);
  });

  it("still inverts a dark-mode screenshot", async () => {
    const sms = PHOTO_CASES.find((c) => c.id === "cbe-sms-2");
    if (!sms) throw new Error("cbe-sms-2 is missing from the photo set");
    const upload = await telegramImage(sms, TELEGRAM_LONG_SIDE);
    expect((await measure(upload)).light).toBeLessThan(0.5);
    expect((await measure(await prepareForOcr(upload, { maxPixels: 40_000_000 }))).light).toBeGreaterThan(
      0.8,
    );
  });

  it("crops and enlarges a small photo of a whole page, however much of the frame it fills", async () => {
    // A page photographed whole and sent small: 85 % of the frame, a dark border on every side.
    const photo = (insetTop: number) => {
      const canvas = createCanvas(600, 800);
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#303030";
      ctx.fillRect(0, 0, 600, 800);
      ctx.fillStyle = "#f4f4f4";
      ctx.fillRect(32, insetTop, 536, 768 - insetTop);
      ctx.fillStyle = "#000";
      ctx.font = "9px sans-serif";
      for (let y = insetTop + 40; y < 740; y += 18) ctx.fillText("Transferred Amount 2,500.00 ETB", 60, y);
      return canvas.toBuffer("image/png");
    };
    const inset = await measure(await prepareForOcr(photo(32), { maxPixels: 40_000_000 }));
    expect(inset.width).toBeGreaterThanOrEqual(1200);
    expect(inset.light).toBeGreaterThan(0.8);
    // The same light area running off the top of the frame is a screenshot's body: read as it is.
    const topless = await measure(await prepareForOcr(photo(0), { maxPixels: 40_000_000 }));
    expect(topless.width).toBe(600);
  });
});
