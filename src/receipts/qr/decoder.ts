import { Worker } from "node:worker_threads";
import { projectFile } from "../../project-files.js";
import { DEFAULT_MAX_PIXELS, readImageHeader } from "../ocr/image-header.js";

// QR codes are read with zxing-cpp compiled to WebAssembly (zxing-wasm): it finds small, rotated and
// blurred codes that pure-JS decoders miss. It runs on a thread of its own (decode-worker.mjs), one image
// at a time, so a decode neither holds the event loop nor outlives its cap.

/** Images are scaled down to this long side before decoding: a phone's 4000 px photo holds no more code. */
const MAX_SIDE = 1600;
/** A receipt carries one code, a screenshot perhaps a second (an ad, a wallet's own): four is plenty. */
const MAX_CODES = 4;
/** A decode past this is abandoned (its thread stopped): the receipt goes on to OCR or the caller's text. */
const DEFAULT_TIMEOUT_MS = 3_000;

export interface QrDecoder {
  /** The text of every QR code in an image (JPEG, PNG, WEBP), in the order found; [] when there is none. */
  decode(image: Uint8Array): Promise<string[]>;
}

export function createQrDecoder(options: { timeoutMs?: number } = {}): QrDecoder {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let worker: Worker | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 0;

  const thread = () => {
    if (!worker) {
      worker = new Worker(projectFile("src", "receipts", "qr", "decode-worker.mjs"));
      // An idle decoder never keeps the process alive.
      worker.unref();
      worker.on("error", () => {
        worker = undefined;
      });
    }
    return worker;
  };

  const run = (image: Uint8Array) =>
    new Promise<string[]>((resolve) => {
      const current = thread();
      const id = nextId++;
      const timer = setTimeout(() => {
        current.off("message", onMessage);
        worker = undefined;
        void current.terminate();
        resolve([]);
      }, timeoutMs);
      const onMessage = (message: { id: number; codes: string[] }) => {
        if (message.id !== id) return;
        clearTimeout(timer);
        current.off("message", onMessage);
        resolve(message.codes);
      };
      current.on("message", onMessage);
      current.postMessage({ id, image, maxSide: MAX_SIDE, maxCodes: MAX_CODES });
    });

  return {
    decode(image) {
      // A decompression bomb (a small file claiming a huge size) is never decoded; OCR then refuses it.
      const header = readImageHeader(image);
      if (!header || header.width * header.height > DEFAULT_MAX_PIXELS) return Promise.resolve([]);
      const result = queue.then(() => run(image));
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
