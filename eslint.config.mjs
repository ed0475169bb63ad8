// Type-aware lint. The import boundary lives here: server/ is the gateway core and must not reach into
// Next.js, React or app/ (checked by `npm run lint`, which `npm test` runs).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export const serverBoundary = {
  files: ["server/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths: [
          { name: "next", message: "server/ is plain TypeScript: no Next.js. Put the adapter in app/." },
          { name: "react", message: "server/ must not import React." },
          { name: "react-dom", message: "server/ must not import React." },
        ],
        patterns: [
          { group: ["react/*", "react-dom/*"], message: "server/ must not import React." },
          {
            group: ["next/*", "next-auth", "next-auth/*"],
            message: "server/ is plain TypeScript: no Next.js. Put the adapter in app/.",
          },
          {
            group: ["@/app", "@/app/*", "**/app/*", "@/components/*", "**/components/*"],
            message: "server/ must not import app/ or components/.",
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      // The server bundle `npm run build` writes (D177): generated, like .next.
      ".build/**",
      "node_modules/**",
      "server/db/generated/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // The plain .mjs scripts and fixtures are outside tsconfig: the block for **/*.mjs below lints them untyped.
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    // disableTypeChecked's own languageOptions (no project, no project service) kept: when they were replaced, every
    // .mjs file went through the project service's default project, about 10 s of the lint for files no typed rule reads.
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  { files: ["**/*.tsx"], plugins: { "react-hooks": reactHooks }, rules: reactHooks.configs.recommended.rules },
  {
    // A form submitted before React has taken over the page is submitted by the browser itself: without a
    // method that is a GET, which puts every named field (a password, a secret's value) into the URL, the
    // access logs and the history. POST keeps them in the body.
    files: ["**/*.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXOpeningElement[name.name='form']:not(:has(JSXAttribute[name.name='method']))",
          message: 'Give every <form> method="post": submitted before hydration, a GET puts its fields in the URL.',
        },
      ],
    },
  },
  serverBoundary,
);
