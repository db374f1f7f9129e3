// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/**
 * The import rules of docs/architecture.md, enforced where a path pattern is
 * enough: contracts import nothing of ours, the frontend only contracts, the
 * platform only contracts, the worker the platform and contracts (its tests
 * may drive the API too), and nothing imports worker or frontend.
 */
const noOtherWorkspaces = (...names) =>
  names.map((name) => ({
    group: [`@agency/${name}`, `@agency/${name}/**`],
    message: `This workspace may not import @agency/${name} (see docs/architecture.md).`,
  }));
const noDeepImports = (name) => ({
  group: [`@agency/${name}/**`],
  message: `Import @agency/${name} through its public entry only.`,
});
/** The platform through its entry; tests may use its test helpers (`testing/*`). */
const noPlatformInternals = {
  regex: '^@agency/platform/(?!testing/)',
  message: 'Import @agency/platform through its entry (tests: @agency/platform/testing/* too).',
};
const restrict = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

/** Tests and their helpers; everything else is code a process runs. */
const testFiles = ['**/*.test.ts', '**/testing/**'];
/**
 * Code a process runs enters the platform by its entry alone: `testing/`
 * (test helpers, and the models each module keeps to itself) is for tests.
 */
const noPlatformTesting = {
  regex: '^@agency/platform/',
  message:
    "Import @agency/platform through its entry: a module's models are reached through its commands and queries (tests: @agency/platform/testing/*).",
};
/** `patterns` for every file, and the platform's entry alone for the code outside tests. */
const restrictWithTests = (files, patterns) => [
  restrict(files, [...patterns, noPlatformInternals]),
  { ...restrict(files, [...patterns, noPlatformTesting]), ignores: testFiles },
];

/**
 * The platform's domain modules (docs/architecture.md, "Who writes each
 * collection"): each folder owns the collections of its `*.model.ts` files,
 * and the others reach them through its commands and queries. Audience and
 * newsletter (subscribers) are one module in two folders.
 */
const platformModules = (() => {
  try {
    return readdirSync(new URL('./platform/src', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => entry.name);
  } catch {
    return [];
  }
})();
const sameModule = (folder) =>
  ['audience', 'newsletter'].includes(folder) ? ['audience', 'newsletter'] : [folder];
const platformPatterns = () => [
  ...noOtherWorkspaces('backend', 'worker', 'frontend', 'e2e'),
  noDeepImports('contracts'),
];
const modelOwnership = platformModules.map((folder) => ({
  ...restrict(
    [`platform/src/${folder}/**/*.ts`],
    [
      ...platformPatterns(),
      {
        regex: `^(\\.\\./)+(?!(${sameModule(folder).join('|')})/)[^./][^/]*/[^/]+\\.model$`,
        message: `Another module's model: call its commands and queries (see "Who writes each collection" in docs/architecture.md).`,
      },
    ],
  ),
  ignores: testFiles,
}));

const featureNames = (() => {
  try {
    return readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
})();
/** app/ composes; nothing it composes may import it back (typed hooks and shared slices live in lib/). */
const noAppImports = {
  group: ['**/app', '**/app/**'],
  message: 'Only app/ imports app/: move what is shared to lib/ (see docs/architecture.md).',
};

/** Features never import each other; app/ composes them. */
const featureIsolation = featureNames.map((feature) =>
  restrict(
    [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
    [
      ...noOtherWorkspaces('backend', 'worker', 'frontend', 'e2e'),
      noDeepImports('contracts'),
      noAppImports,
      ...featureNames
        .filter((other) => other !== feature)
        .map((other) => ({
          group: [
            `**/features/${other}`,
            `**/features/${other}/**`,
            `../${other}`,
            `../${other}/**`,
          ],
          message: `Feature "${feature}" may not import feature "${other}"; compose them in app/.`,
        })),
    ],
  ),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      '.stryker-tmp*/**',
      'reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'mutation/**/*.mjs', 'e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  restrict(
    ['contracts/**/*.ts'],
    [
      ...noOtherWorkspaces('platform', 'backend', 'worker', 'frontend', 'e2e'),
      { group: ['node:*'], message: 'contracts must stay browser-safe.' },
    ],
  ),
  // The platform is what the API and the worker share: it knows neither.
  restrict(['platform/**/*.ts'], platformPatterns()),
  ...modelOwnership,
  restrict(
    ['frontend/**/*.{ts,tsx}'],
    [
      ...noOtherWorkspaces('platform', 'backend', 'worker', 'frontend', 'e2e'),
      noDeepImports('contracts'),
    ],
  ),
  {
    ...restrict(
      ['frontend/src/lib/**/*.{ts,tsx}', 'frontend/src/components/**/*.{ts,tsx}'],
      [
        ...noOtherWorkspaces('backend', 'worker', 'frontend', 'e2e'),
        noDeepImports('contracts'),
        noAppImports,
        { group: ['**/features/**'], message: 'lib/ and components/ never import a feature.' },
      ],
    ),
    // Tests may render a feature's texts through a shared component.
    ignores: ['**/*.test.{ts,tsx}'],
  },
  ...featureIsolation,
  ...restrictWithTests(
    ['backend/**/*.ts'],
    [
      ...noOtherWorkspaces('worker', 'frontend', 'e2e'),
      noDeepImports('contracts'),
      {
        regex: '(^|/)modules/[^/]+/(?!index$|store$)[^/]+$',
        message: 'Enter another backend module through its index.ts.',
      },
    ],
  ),
  ...restrictWithTests(
    ['backend/src/modules/*/**/*.ts'],
    [
      ...noOtherWorkspaces('worker', 'frontend', 'e2e'),
      noDeepImports('contracts'),
      {
        regex: '^\\.\\./(?!\\.)[^/]+/(?!index$|store$)[^/]+$',
        message: 'Enter another backend module through its index.ts.',
      },
    ],
  ),
  // The worker process loads the platform (no Koa, no router, no argon2),
  // never the API. Its tests may drive the whole API to test the pipeline.
  ...restrictWithTests(
    ['worker/**/*.ts'],
    [...noOtherWorkspaces('backend', 'frontend', 'e2e'), noDeepImports('contracts')],
  ),
  restrict(
    ['worker/src/**/*.test.ts', 'worker/src/testing/**/*.ts'],
    [
      ...noOtherWorkspaces('frontend', 'e2e'),
      noDeepImports('backend'),
      noDeepImports('contracts'),
      noPlatformInternals,
    ],
  ),
  prettier,
);
