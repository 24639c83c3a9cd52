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
  },
});
