/**
 * Browser tests: the playground (the system's real templates, CSS, context builders and actions
 * in a stand-in host) driven in real headless Chromium through playwright-core.
 * Run by `npm test` (tools/test.mjs) after the unit tests; alone: `npx vitest run -c vitest.browser.config.ts`.
 * The browser is the pinned devDependency @sparticuz/chromium (tools/chromium.mjs; CHROME_PATH overrides).
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/browser/**/*.test.ts"],
    globalSetup: ["tests/browser/global-setup.ts"],
    setupFiles: ["tests/browser/load-presets.ts"],
    // One Chromium at a time: the machine has two cores.
    fileParallelism: false,
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
