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

let shared: OcrEngine | undefined;

/**
 * One engine (two workers, for two cores) per test process, shared by the test files that read receipts in
 * it: vitest runs many files per process (isolate: false), so the workers start once (~0.5 s of CPU each)
 * rather than once per file. Test files never close it; it ends with the process, which vitest ends
 * whether or not worker threads are running.
 */
export function sharedOcrEngine(): OcrEngine {
  shared ??= testOcrEngine({ poolSize: 2 });
  return shared;
}
