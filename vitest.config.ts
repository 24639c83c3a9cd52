import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Left out of the edit loop's run (`vitest run --mode quick`, npm run test:quick), chosen from the suite's
 * per-file durations: what starts service processes, a browser or a shell, reads photos by OCR, fuzzes
 * 10,000 requests, or waits out real deadlines and time limits. About two thirds of the suite's time in a
 * fifth of its files. `npm test` (and CI) runs everything; `npx vitest run --changed` runs what a change
 * touches.
 */
const SLOW = [
  "test/service/**",
  "test/faults/**",
  "test/serve/**",
  "test/pdf/**",
  "test/docs/docs-page.test.ts",
  "test/docs/examples.test.ts",
  "test/docs/production.test.ts",
  "test/hardening/files.test.ts",
  "test/hardening/fuzz.test.ts",
  "test/hardening/instances.test.ts",
  "test/hardening/processes.test.ts",
  "test/hardening/server-timeouts.test.ts",
  "test/receipts/ocr.test.ts",
  "test/receipts/ocr-preprocess.test.ts",
  "test/receipts/photo-set.test.ts",
  "test/receipts/qr.test.ts",
  "test/api/receipts-ocr.test.ts",
  "test/api/deadline.test.ts",
  "test/bot/photos.test.ts",
  "test/bot/lifecycle.test.ts",
  "test/bot/slow-bank.test.ts",
];

/**
 * Started first, longest first: a fresh clone has no record of the files' durations, and one of these
 * started last kept one worker busy alone at the end of the run (the photo set's OCR: the last 50 s).
 */
const LONGEST = [
  "test/receipts/photo-set.test.ts",
  "test/faults/crash-restart.test.ts",
  "test/faults/database-stall.test.ts",
  "test/api/deadline.test.ts",
  "test/service/admin-cli.test.ts",
  "test/bot/flows.test.ts",
  "test/service/workers.test.ts",
  "test/hardening/fuzz.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONGEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig(({ mode }) => ({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: mode === "quick" ? [...configDefaults.exclude, ...SLOW] : configDefaults.exclude,
    globalSetup: ["test/setup/database.ts"],
    // Only a real failure (a hang) reaches these: tests wait for events with bounds of their own
    // (test/support/wait.ts, 30 s), and a loaded 2-core machine runs a test several times slower than an idle one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: more workers only queue behind PostgreSQL and the simulators.
    maxWorkers: 2,
    // Each of the two worker processes runs its share of the files one after another, with the modules they
    // import loaded once (MikroORM, grammY, pdf.js, canvas...) instead of once per file: on this 2-core
    // machine the suite's import time went from 610 s to 55 s, its wall time by a third, with the same
    // results. Test files keep their state in their own module and close what they open; what is shared on
    // purpose is test/support/ocr.ts's engine, one per process.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
}));
