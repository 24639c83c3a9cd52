import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { photoOf, RECEIPT_SAMPLES, renderReceiptImage } from "../../fakes/receipt-images.js";
import { atMost, recorded, type ScenarioResult } from "../figures.js";
import { median, round, summarize } from "../stats.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface OcrChildResult {
  firstMs: number;
  samples: { bank: string; ms: number; referenceRead: boolean }[];
  rssBeforeMb: number;
  peakRssMb: number;
}

/**
 * 6. OCR: receipt photos (the six test receipts photographed: 1,200 px wide, tilted, blurred, noisy,
 * JPEG) to text with the default pool. The photos are drawn here; the OCR runs in a process of its own
 * (bench/ocr-child.ts), so its peak RSS is that of the OCR alone.
 */
export async function ocr(): Promise<ScenarioResult> {
  const dir = await mkdtemp(path.join(tmpdir(), "birrcheck-bench-ocr-"));
  let result: OcrChildResult;
  try {
    const manifest = [];
    for (const [index, sample] of RECEIPT_SAMPLES.entries()) {
      const file = path.join(dir, `${index}-${sample.bank}.jpg`);
      await writeFile(file, await renderReceiptImage(sample.lines, photoOf(sample)));
      manifest.push({ bank: sample.bank, reference: sample.reference, file });
    }
    await writeFile(path.join(dir, "photos.json"), JSON.stringify(manifest));
    result = await runChild(path.join(dir, "photos.json"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const times = result.samples.map((s) => s.ms);
  return {
    figures: [
      atMost(
        "ocr.median",
        6,
        `receipt photo → text, median (${times.length} photos)`,
        round(median(times), 0),
        "ms",
        2000,
      ),
      recorded("ocr.peak_rss", 6, "OCR process peak RSS (1 worker)", result.peakRssMb, "MB"),
    ],
    details: {
      poolSize: 1,
      firstImageMs: round(result.firstMs, 0),
      latency: summarize(times),
      referencesRead: `${result.samples.filter((s) => s.referenceRead).length}/${result.samples.length}`,
      rssBeforeOcrMb: result.rssBeforeMb,
      peakRssMb: result.peakRssMb,
      byBank: result.samples.map((s) => ({
        bank: s.bank,
        ms: round(s.ms, 0),
        referenceRead: s.referenceRead,
      })),
    },
  };
}

function runChild(manifest: string): Promise<OcrChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/ocr-child.ts", manifest], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) {
        reject(new Error(`the OCR bench process failed (${code}):\n${stderr.slice(-2000)}`));
        return;
      }
      resolve(JSON.parse(line) as OcrChildResult);
    });
  });
}
