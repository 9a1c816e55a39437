import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/browser/**", "node_modules/**"],
    pool: "threads",
    setupFiles: ["tests/setup.ts"],
    testTimeout: 60_000,
  },
});
