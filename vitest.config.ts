import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only queue behind PostgreSQL and the simulators.
    maxWorkers: 2,
  },
});
