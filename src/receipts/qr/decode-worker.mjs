// The QR decoder's thread (plain JavaScript, so the same file runs under tsx and compiled): decoding a
// photo takes tens of milliseconds of WebAssembly that would otherwise hold the event loop, and a thread
// can be stopped when a decode runs past its cap. Messages: { id, image, maxSide, maxCodes } → { id, codes }.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";

const require = createRequire(import.meta.url);
// The .wasm from the installed package: by default zxing-wasm fetches it from a CDN, which fails offline.
const wasm = readFileSync(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
const ready = prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
  fireImmediately: true,
});

async function decode(image, maxSide, maxCodes) {
  await ready;
  let picture;
  try {
    picture = await loadImage(Buffer.from(image));
  } catch {
    return [];
  }
  const scale = Math.min(1, maxSide / Math.max(picture.width, picture.height));
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext("2d");
  // A transparent screenshot's code would be black on black: paper-white underneath.
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, width, height);
  context.drawImage(picture, 0, 0, width, height);
  const results = await readBarcodes(context.getImageData(0, 0, width, height), {
    formats: ["QRCode"],
    tryHarder: true,
    maxNumberOfSymbols: maxCodes,
  });
  return results.filter((result) => result.isValid && result.text !== "").map((result) => result.text);
}

parentPort?.on("message", ({ id, image, maxSide, maxCodes }) => {
  decode(image, maxSide, maxCodes).then(
    (codes) => parentPort?.postMessage({ id, codes }),
    () => parentPort?.postMessage({ id, codes: [] }),
  );
});
