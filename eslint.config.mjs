// ESLint (flat config): npm run lint, npm run lint:fix. Layout is Prettier's job (npm run
// format), so no rule here is about formatting.
//
// Not type-aware: typescript-eslint's type-checked set took 17 s here against 6 s, and nearly all
// it adds are no-unsafe-* reports about the `any` that custom-function signatures must use;
// `npm run typecheck` already runs the compiler.
import js from "@eslint/js";
import officeAddins from "eslint-plugin-office-addins";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Microsoft's Office add-in rules (load and context.sync misuse) at the levels of the plugin's
// own "recommended" config. That config also runs Prettier as a lint rule and parses as ES6,
// which this project does not want, so only its office-addins/* levels are taken.
const officeAddinRules = Object.fromEntries(
  officeAddins.configs.recommended.flatMap((c) => Object.entries(c.rules ?? {})).filter(([name]) => name.startsWith("office-addins/")),
);

// The files the custom-functions metadata is generated from (webpack.config.js FUNCTION_FILES).
const FUNCTION_FILES = ["src/functions/functions.ts", "src/functions/search-functions.ts", "src/functions/helper-functions.ts"];

export default tseslint.config(
  { ignores: ["dist/", "coverage/", "data/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  {
    // Route handlers are typed from their schemas: no `any` reaches a route.
    files: ["src/server/routes/**"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    // In these signatures `any` is Excel's any-value type and `any[][]` a spill: the metadata
    // generator reads them, so they are the right types here.
    files: FUNCTION_FILES,
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The code that calls Excel's API (Excel.run, load, context.sync).
    files: ["src/functions/**", "src/taskpane/**"],
    plugins: { "office-addins": officeAddins },
    rules: officeAddinRules,
  },
  {
    files: ["src/taskpane/ui/**"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // CommonJS run by Node directly (webpack and jest configs, scripts/*.js).
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      // `const crypto = require("node:crypto")` is not a redeclaration of the global crypto.
      "no-redeclare": ["error", { builtinGlobals: false }],
    },
  },
  {
    // The account pages' own scripts, run by the browser as plain scripts.
    files: ["src/server/web/assets/**/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser, SwaggerUIBundle: "readonly" } },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
