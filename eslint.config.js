// Lint rules: the recommended sets of ESLint and typescript-eslint, plus the floor plan of docs/design.md §5
// (which folder may import which, where Probot and Octokit may appear, file and function sizes).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The stages of src/ in dependency order, lowest first: a folder may import only the folders before
 * it (and itself). The entry points (src/*.ts, src/cli/) may import any of them.
 */
const LAYERS = [
  'core',
  'config',
  'sandbox',
  'formats',
  'runners',
  'checks',
  'gate',
  'workspace',
  'report',
  'verify',
  'engines',
  'assess',
  'loop',
  'jobs',
  'forge',
  'triggers',
  'github',
];

/** Probot and Octokit belong to the GitHub adapter and the entry points only. */
const GITHUB_PACKAGES = {
  paths: [
    {
      name: 'probot',
      message: 'Probot belongs to src/github/ (the adapter) and the entry points: use the Forge port (src/forge/forge.ts).',
    },
  ],
  patterns: [
    {
      group: ['@octokit/*', 'probot/*'],
      message:
        'Octokit and Probot belong to src/github/ (the adapter) and the entry points: use the Forge port (src/forge/forge.ts).',
    },
  ],
};

/** Files of `folder` that sit `depth` folders below it, e.g. depth 0: src/loop/<file>.ts, depth 1: src/engines/agent/<file>.ts. */
function filesAtDepth(folder, depth) {
  return [`src/${folder}/${'*/'.repeat(depth)}*.ts`];
}

/** A relative import that climbs out of `folder` (from `depth` below it) into one of `later`. */
function laterFolderPattern(depth, later) {
  const up = '\\.\\./'.repeat(depth + 1);
  return {
    regex: `^${up}(${later.join('|')})/`,
    message: `A stage imports only earlier ones (${LAYERS.join(' → ')}): move the shared part down, usually into src/core/.`,
  };
}

/**
 * A test runner is named only in its own folder, src/runners/<runner>/ (docs/design.md §1.5): elsewhere code
 * asks the registry (src/runners/registry.ts) and the descriptor type (src/runners/runner.ts), never a
 * runner's folder. A relative import that goes down into a folder of src/runners/ is refused.
 */
const RUNNER_FOLDER_IMPORT = {
  regex: '(^|/)runners/[^/]+/',
  message:
    "A runner is known only through the registry: import src/runners/registry.ts (or the TestRunner type), not a runner's folder.",
};

/**
 * ...and no string outside src/runners/ names one: a string literal or a template literal's text that
 * is exactly the id `node-test`, or holds jest, vitest, mocha or pytest as a word (`_pytest` and
 * `.pytest_cache` do not: `_` is a word character). Comments may name runners; a regular expression
 * literal is not a string. Import specifiers are string literals too: this also refuses
 * `'../runners/jest/…'`.
 */
const RUNNER_NAME = '/^node-test$|\\b(jest|vitest|mocha|pytest)\\b/';
const RUNNER_NAME_MESSAGE =
  'Runner knowledge lives in src/runners/<runner>/ behind the TestRunner descriptor: ask the registry (src/runners/registry.ts) instead of naming a runner.';
const runnerNameRule = {
  files: ['src/**/*.ts'],
  ignores: ['src/runners/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: `Literal[value=${RUNNER_NAME}]`, message: RUNNER_NAME_MESSAGE },
      { selector: `TemplateElement[value.raw=${RUNNER_NAME}]`, message: RUNNER_NAME_MESSAGE },
    ],
  },
};

const layerRules = LAYERS.flatMap((folder, index) => {
  // The entry points (the CLI, the library) are imported by no stage.
  const later = LAYERS.slice(index + 1).concat(['cli', 'library']);
  return [0, 1, 2, 3, 4].map((depth) => ({
    files: filesAtDepth(folder, depth),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...(folder === 'github' ? {} : { paths: GITHUB_PACKAGES.paths }),
          patterns: [
            laterFolderPattern(depth, later),
            ...(folder === 'github' ? [] : GITHUB_PACKAGES.patterns),
            // The registry imports the runners' folders; a runner's folder never imports another's.
            ...(folder !== 'runners'
              ? [RUNNER_FOLDER_IMPORT]
              : depth === 1
                ? [
                    {
                      regex: '^\\.\\./[\\w-]+/',
                      message: "A runner's folder does not import another runner's: share through src/runners/ or src/formats/.",
                    },
                  ]
                : []),
          ],
        },
      ],
    },
  }));
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'coverage/**',
      '.fixloop/**',
      'dist/**',
      'examples/**',
      'bench/corpus/**',
      'bench/results/**',
      // The real corpus's bugs: projects' own code and the separation programs written for their
      // mutants, built on the machine that measures and never committed (bench/real/README.md).
      'bench/real/**',
      'test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // CommonJS preloads that fixloop hands to a project's own Node (NODE_OPTIONS=--require).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Small files, one concept each; functions a reader can hold in mind. The CommonJS that runs inside
    // the repository's test processes too.
    files: ['src/**/*.ts', 'src/**/*.cjs'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 100 }],
    },
  },
  ...layerRules,
  {
    // The entry points may import any stage, but not a runner's folder either.
    files: ['src/*.ts', 'src/cli/**/*.ts', 'src/library/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [RUNNER_FOLDER_IMPORT] }] },
  },
  runnerNameRule,
);
