import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "src/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    // Most of a test's time is waiting (the network, a processor's answer, a projection catching
    // up), so files run two to a core; vitest's default, one per core less one, runs a 2-core
    // machine's suite one file at a time.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
