import { createOcrEngine, type OcrEngine, type OcrOptions } from "../../src/receipts/ocr/index.js";

/**
 * A limit per image that no loaded machine reaches: tests that read receipts check what is read, not how
 * fast (the bench's figure). The limit itself is tested in test/receipts/ocr.test.ts with a tiny one.
 */
export const TEST_OCR_TIMEOUT_MS = 600_000;

/** The service's OCR engine, for tests that check what it reads. */
export function testOcrEngine(options: OcrOptions = {}): OcrEngine {
  return createOcrEngine({ timeoutMs: TEST_OCR_TIMEOUT_MS, ...options });
}
