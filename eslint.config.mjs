// ESLint with type information (typescript-eslint) and import-x/no-cycle over the repository's
// TypeScript and JavaScript. `npm run lint` runs it with knip (files, exports and dependencies
// nothing uses) and prettier --check.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import globals from "globals";
import tseslint from "typescript-eslint";

const unusedVars = ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }];

// The rules that follow a value typed `any` through assignments, calls and member reads.
// They hold for the library (src/) but not where `any` is the interface itself: the Pulumi
// dynamic-provider methods take and return `any` (src/resources), and the tests read the
// JSON:API documents they receive as `any` on purpose.
const unsafeAny = {
  "@typescript-eslint/no-explicit-any": "off",
  "@typescript-eslint/no-unsafe-argument": "off",
  "@typescript-eslint/no-unsafe-assignment": "off",
  "@typescript-eslint/no-unsafe-call": "off",
  "@typescript-eslint/no-unsafe-member-access": "off",
  "@typescript-eslint/no-unsafe-return": "off",
};

export default defineConfig(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "docs/reference/**",
      "coverage/**",
      // Recorded output of an earlier release, compared byte for byte.
      "test/**/fixtures/**",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },

  // Every file: no import circles. Relative imports resolve as Node resolves the compiled
  // output; `import type` edges vanish at compile time and do not count.
  {
    files: ["**/*.{ts,js,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".js", ".mjs"],
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".json", ".node"] })],
    },
    rules: { "import-x/no-cycle": "error" },
  },

  // TypeScript: typescript-eslint's recommended type-checked set, with the types of
  // tsconfig.eslint.json (src, tests, policies, examples, demo) and, for the web view's page
  // (browser code, the DOM library), of its own tsconfig, which comes first so that a page
  // file a test imports is still read with the page's types.
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ["./src/server/web/page/tsconfig.json", "./tsconfig.eslint.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": unusedVars,
      // A method of a promise-returning interface (a dynamic provider's check and diff, a
      // Fastify handler) is async so that what it throws becomes a rejection; dropping the
      // keyword to please this rule would change that.
      "@typescript-eslint/require-await": "off",
      // Passing on what a catch received, whatever it is, is not inventing a non-Error reason.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    files: ["src/resources/**/*.ts", "src/server/web/page/**/*.ts", "test/**/*.ts", "policies/test/**/*.ts"],
    rules: unsafeAny,
  },

  // JavaScript (bench, scripts): CommonJS run by Node, without type information.
  {
    files: ["**/*.js"],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: { "no-unused-vars": unusedVars },
  },
  {
    files: ["**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
);
