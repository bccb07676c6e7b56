import { defineConfig } from "vitest/config";

export default defineConfig({
  // Where vitest keeps each file's last duration, which orders the next run (longest first). CI
  // keeps the end-to-end suite's outside the fresh clone, so that its two workers end together.
  cacheDir: process.env.WORKSPACES_VITEST_CACHE_DIR,
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts", "policies/test/**/*.test.ts"],
          exclude: [
            "test/e2e/**",
            "test/otf/**",
            "test/languages/**",
            "test/package/install.test.ts",
            "**/node_modules/**",
          ],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/package/install.test.ts"],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // The same stack in YAML, Go and Python through the plugin (npm run test:languages).
          name: "languages",
          include: ["test/languages/**/*.test.ts"],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Against an OTF server the user runs, an independent server of the same API (test/otf/README.md).
          name: "otf",
          include: ["test/otf/**/*.test.ts"],
          globalSetup: ["test/otf/global-setup.ts"],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
