import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
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
  },
});
