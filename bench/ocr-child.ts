/**
 * Scenario 6's process: reads the photos listed in the manifest (argv[2], written by
 * bench/scenarios/ocr.ts) with the service's OCR engine and default pool, one at a time, twice over.
 * Prints one JSON line: timings, whether each receipt's reference came out, RSS before and at peak.
 */
import { readFile } from "node:fs/promises";
import { createOcrEngine } from "../src/receipts/ocr/index.js";

const ROUNDS = 2;

const manifestFile = process.argv[2];
if (!manifestFile) throw new Error("usage: ocr-child.ts <photos.json>");
const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as {
  bank: string;
  reference: string;
  file: string;
}[];
const photos = await Promise.all(manifest.map(async (p) => ({ ...p, image: await readFile(p.file) })));

const rssBeforeMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
const engine = createOcrEngine();
try {
  const first = photos[0];
  if (!first) throw new Error("no photos");
  // The first image also starts the worker (model load, WASM compile); it is reported apart.
  let started = performance.now();
  await engine.recognize(first.image);
  const firstMs = performance.now() - started;
  const samples: { bank: string; ms: number; referenceRead: boolean }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const { bank, reference, image } of photos) {
      started = performance.now();
      const { text } = await engine.recognize(image);
      const ms = performance.now() - started;
      samples.push({ bank, ms, referenceRead: text.replace(/\s/g, "").includes(reference) });
    }
  }
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify({ firstMs, samples, rssBeforeMb, peakRssMb })}\n`);
} finally {
  await engine.close();
}
