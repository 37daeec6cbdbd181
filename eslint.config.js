// One lint configuration for the whole repository (decision 007): typescript-eslint's recommended
// rules, React hooks, jsx-a11y, and the import boundaries that keep data flowing one way.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Deep relative imports are spelled with the path aliases instead. */
const deepRelative = { group: ["../../*"], message: "Use the #app/, #worker/ or #drizzle/ alias instead of ../../" };

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".wrangler/**", "e2e-artifacts/**", "public/**", "migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-imports": ["error", { patterns: [deepRelative] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      ...jsxA11y.flatConfigs.recommended.rules,
      // A region that scrolls sideways must be a tab stop to be scrolled by keyboard (axe's
      // scrollable-region-focusable): the Stats chart on a phone (issue 22).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["tabpanel", "region"], tags: [] }],
    },
  },
  {
    // The domain never depends on the UI: worker code may not import anything from app/.
    files: ["worker/**/*.ts", "drizzle/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            deepRelative,
            {
              regex: "^(#app(/|$)|~/|(\\.\\./)+app/)",
              message: "worker/ must not import app/ (the domain never depends on the UI)",
            },
          ],
        },
      ],
    },
  },
  {
    // One logger writes one JSON shape (worker/log.ts): nothing else in app/ or worker/ calls console.
    files: ["app/**/*.{ts,tsx}", "worker/**/*.{ts,tsx}"],
    ignores: ["worker/log.ts"],
    rules: {
      "no-console": "error",
      // A file a reader can hold at once; past it, split by what belongs together, not by line count.
      "max-lines": ["error", { max: 300 }],
    },
  },
);
