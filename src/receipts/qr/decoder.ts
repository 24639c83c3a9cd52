import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { readImageHeader } from "../ocr/image-header.js";
import { DEFAULT_MAX_PIXELS } from "../ocr/preprocess.js";

// QR codes are read with zxing-cpp compiled to WebAssembly (zxing-wasm): it finds small, rotated and
// blurred codes that pure-JS decoders miss (README "QR codes"). Its .wasm comes from the installed
// package, never from the CDN the library would fetch it from by default: the service runs offline.

/** Images are scaled down to this long side before decoding: a phone's 4000 px photo holds no more code. */
const MAX_SIDE = 1600;
/** A receipt carries one code, a screenshot perhaps a second (an ad, a wallet's own): four is plenty. */
const MAX_CODES = 4;

export interface QrDecoder {
  /** The text of every QR code in an image (JPEG, PNG, WEBP), in the order found; [] when there is none. */
  decode(image: Uint8Array): Promise<string[]>;
}

let ready: Promise<unknown> | undefined;

function prepare(): Promise<unknown> {
  ready ??= (() => {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return ready;
}

export function createQrDecoder(): QrDecoder {
  return {
    async decode(image) {
      // A decompression bomb (a small file claiming a huge size) is never decoded; OCR then refuses it.
      const header = readImageHeader(image);
      if (!header || header.width * header.height > DEFAULT_MAX_PIXELS) return [];
      await prepare();
      let picture: Awaited<ReturnType<typeof loadImage>>;
      try {
        picture = await loadImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      } catch {
        return [];
      }
      const scale = Math.min(1, MAX_SIDE / Math.max(picture.width, picture.height));
      const width = Math.max(1, Math.round(picture.width * scale));
      const height = Math.max(1, Math.round(picture.height * scale));
      const canvas = createCanvas(width, height);
      const context = canvas.getContext("2d");
      // A transparent screenshot's code would be black on black: paper-white underneath.
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, width, height);
      context.drawImage(picture, 0, 0, width, height);
      const pixels = context.getImageData(0, 0, width, height);
      const results = await readBarcodes(pixels as unknown as Parameters<typeof readBarcodes>[0], {
        formats: ["QRCode"],
        tryHarder: true,
        maxNumberOfSymbols: MAX_CODES,
      });
      return results.filter((result) => result.isValid && result.text !== "").map((result) => result.text);
    },
  };
}
