// RepoConfig (docs/design.md §2): the repository's `fixloop.yml` / `.github/fixloop.yml`, CLI flags override it.
// One zod schema serves the CLI, the GitHub App and the published JSON Schema.
import { z } from 'zod';
import { loopConfigSchema } from './loop-config.ts';

/** Test-file conventions protected by default: a fix must not weaken the judge. */
export const DEFAULT_PROTECTED_PATHS = [
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/spec/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/test_*.py',
  '**/*_test.py',
  '**/conftest.py',
  '**/*_test.go',
  '.github/**',
];

/** Never changed, whatever the configuration says (docs/design.md §3.1.4). */
export const ALWAYS_PROTECTED_PATHS = ['.github/workflows/**'];

export const ENGINE_NAMES = ['repair', 'fixers', 'script', 'agent', 'cli'] as const;
export const CLI_AGENTS = ['aider', 'codex', 'claude'] as const;
export type CliAgentName = (typeof CLI_AGENTS)[number];
export type EngineName = (typeof ENGINE_NAMES)[number];
/** The cascade when no engine is named. */
export const DEFAULT_ENGINES: readonly EngineName[] = ['repair'];
/** The cascade when no engine is named and the gate is a check: the repository's own fixers first. */
export const CHECK_ENGINES: readonly EngineName[] = ['fixers', 'repair'];
/** What a green run must show (`test.evidence`). */
export const EVIDENCE_KINDS = ['per-test', 'exit-code'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

const seconds = z.number().int().positive().max(86_400);
const glob = z.string().min(1);

export const repoConfigSchema = z
  .object({
    test: z
      .object({
        command: z
          .string()
          .min(1)
          .optional()
          .describe(
            'The test command, run with /bin/sh -c from the repository root. Its exit code is the gate. The test runner it starts is found directly, or through a package.json script that npm, pnpm or yarn runs (`npm test`, `pnpm test`, `yarn run unit`) and the steps it chains with `&&`.',
          ),
        timeout: seconds.default(600).describe('Seconds before a test run (and its whole process tree) is killed.'),
        report: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Path of a JUnit XML file the test command writes, relative to the repository root; read for per-test results.',
          ),
        evidence: z
          .enum(EVIDENCE_KINDS)
          .default('per-test')
          .describe(
            'What a green run must show. `per-test` (default): per-test results read from the output or `report`, agreeing with the exit code. `exit-code`: for suites fixloop cannot read per test, the exit code alone; such runs are labelled so, their pull requests are drafts and their check runs neutral. It also accepts a run whose test runner fixloop\'s runtime guard cannot reach ("runtime guard: not available for this runner"), which is otherwise never `verified`.',
          ),
      })
      .strict()
      .default({ timeout: 600, evidence: 'per-test' }),
    setup: z
      .object({
        command: z
          .string()
          .min(1)
          .optional()
          .describe('Run once in each fresh checkout before the first test run (e.g. `npm ci`).'),
        timeout: seconds.default(900).describe('Seconds before the setup command is killed.'),
      })
      .strict()
      .default({ timeout: 900 }),
    checks: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Commands of failing checks that are not test suites (lint, format, type check), each run with /bin/sh -c from the repository root. When set, they are the gate: each must exit 0, on a pristine replay too, and the test suite beside them guards against regressions (every test that passed at the baseline still passes). Their output is read per diagnostic where the tool has a format fixloop knows (ESLint, standard, Prettier, tsc, ruff, flake8, pyflakes, mypy, black, isort). A patch that changes the tools' configuration or adds a comment that silences them is not a fix. With checks and no `engines` named, the cascade is `[fixers, repair]`.",
      ),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string())
      .default({})
      .describe(
        'Literal variables given to setup, tests and script engines, on top of the allow-list (PATH, HOME, LANG, CI=true). The parent environment is never passed.',
      ),
    paths: z
      .object({
        allowed: z.array(glob).default(['**']).describe('Globs of the paths a fix may change.'),
        protected: z
          .array(glob)
          .default(DEFAULT_PROTECTED_PATHS)
          .describe(
            'Globs of the paths a fix may never change (tests and .github by default). `.github/workflows/**` is always protected.',
          ),
      })
      .strict()
      .default({ allowed: ['**'], protected: DEFAULT_PROTECTED_PATHS }),
    constraints: z
      .object({
        maxFilesChanged: z.number().int().positive().default(10).describe('Most files a patch may change.'),
        maxLinesChanged: z.number().int().positive().default(200).describe('Most lines (added + removed) a patch may change.'),
        allowNewDependencies: z
          .boolean()
          .default(false)
          .describe(
            'Whether a patch may add dependencies to manifests (package.json, requirements*.txt, pyproject.toml, go.mod, Cargo.toml, pom.xml, build.gradle).',
          ),
      })
      .strict()
      .default({ maxFilesChanged: 10, maxLinesChanged: 200, allowNewDependencies: false }),
    loop: loopConfigSchema,
    engines: z
      .array(z.enum(ENGINE_NAMES))
      .min(1)
      .default([...DEFAULT_ENGINES])
      .describe(
        "The engine cascade, cheapest first: `repair` (no key, no network), `fixers` (the repository's own lint and format fixers, for a failing check), `script`, `agent` (an LLM with tools), `cli` (aider, codex or claude). With a model configured, `[repair, agent]` is the recommended cascade. Unnamed, it is `[repair]`, or `[fixers, repair]` when `checks` are set.",
      ),
    script: z
      .object({
        command: z.string().min(1).optional().describe('The command the `script` engine runs in the workspace for each attempt.'),
        timeout: seconds.default(600).describe('Seconds before one script run is killed.'),
      })
      .strict()
      .default({ timeout: 600 }),
    repair: z
      .object({
        maxCandidates: z
          .number()
          .int()
          .positive()
          .default(300)
          .describe(
            "Most candidate patches the repair engine validates from one state of the code (over several attempts when one attempt's time runs out).",
          ),
        timeBudget: seconds
          .default(300)
          .describe(
            'Seconds the repair engine may spend in one attempt; the candidates left when it runs out are validated in the next attempt, unless another engine follows in the cascade.',
          ),
        parallelism: z
          .number()
          .int()
          .positive()
          .max(64)
          .optional()
          .describe('Candidates validated at once (default: the number of cores).'),
        exploreTime: z
          .number()
          .int()
          .min(0)
          .max(3600)
          .default(60)
          .describe(
            'Most seconds the repair engine goes on validating after its first plausible candidate, to find one that weakens no check and others that disagree with it (0: stop at the first). It goes on no longer than finding the first took (at least 5 s), and through twenty candidates after it (the other candidates at the line the first one changed first, past `repair.maxCandidates` too), within this time.',
          ),
      })
      .strict()
      .default({ maxCandidates: 300, timeBudget: 300, exploreTime: 60 }),
    agent: z
      .object({
        maxToolCalls: z
          .number()
          .int()
          .positive()
          .max(10_000)
          .default(150)
          .describe('Most tool calls the `agent` engine makes in one run (all attempts together).'),
        maxTokens: z
          .number()
          .int()
          .positive()
          .default(2_000_000)
          .describe(
            "Most tokens (prompt + completion) the `agent` engine and the reviewer spend in one run. The app's `FIXLOOP_MAX_TOKENS` caps it (default: this default).",
          ),
        maxCostUsd: z
          .number()
          .positive()
          .default(5)
          .describe(
            "Most US dollars the `agent` engine and the reviewer spend in one run, priced with the model price table. The app's `FIXLOOP_MAX_COST_USD` caps it (default: this default).",
          ),
        timeBudget: seconds
          .default(1800)
          .describe('Seconds the `agent` engine may spend in one run, its own test runs included.'),
        writeTests: z
          .boolean()
          .default(true)
          .describe(
            'When the baseline is green, an engine that can write tests first writes one that fails on the pristine code (red), then fixes the code (green). Without such a test there is nothing to fix.',
          ),
      })
      .strict()
      .default({ maxToolCalls: 150, maxTokens: 2_000_000, maxCostUsd: 5, timeBudget: 1800, writeTests: true }),
    cli: z
      .object({
        agent: z
          .enum(CLI_AGENTS)
          .default('aider')
          .describe(
            "The coding agent the `cli` engine runs: aider, codex (`codex exec`) or claude (print mode). Its model and key come from the app's environment.",
          ),
        timeout: seconds
          .default(1200)
          .describe('Seconds before one run of the coding agent (and its whole process tree) is killed.'),
      })
      .strict()
      .default({ agent: 'aider', timeout: 1200 }),
    triggers: z
      .object({
        label: z.string().min(1).default('fixloop').describe('Labeling an issue with this starts a run.'),
        assignee: z
          .string()
          .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/, 'must be a GitHub login, such as fixloop-bot')
          .nullable()
          .default(null)
          .describe(
            'Assigning an issue to this login starts a run; unassigning it cancels the run (null: assignment does nothing).',
          ),
        command: z
          .string()
          .regex(/^\/[a-z-]+$/, 'must look like /fix')
          .default('/fix')
          .describe('The slash command in comments.'),
        failingChecks: z.boolean().default(false).describe('React to failing checks on pull requests (opt-in).'),
        minPermission: z
          .enum(['read', 'triage', 'write', 'maintain', 'admin'])
          .default('write')
          .describe('Lowest repository permission of a person who may start a run.'),
        maxRunsPerPullRequest: z
          .number()
          .int()
          .positive()
          .default(3)
          .describe('Most runs started by failing checks on one pull request.'),
      })
      .strict()
      .default({
        label: 'fixloop',
        assignee: null,
        command: '/fix',
        failingChecks: false,
        minPermission: 'write',
        maxRunsPerPullRequest: 3,
      }),
    assessment: z
      .object({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            'After the judge holds, look for what else the patch changed outside the failing tests (the suite probed at the changed functions, and inputs generated around the ones it used). Off: a green run is published on the judge alone, as before the assessment (no `assessment` in its result), and its report says that no assessment ran.',
          ),
        timeBudget: seconds
          .max(600)
          .default(120)
          .describe(
            "Seconds the assessment may take at most; it takes a quarter of the time the run took so far, or five runs of the baseline suite when that is more (ten for another engine's patch than the `repair` engine's, whose rivals it looks for itself), and at least 60 s and six runs of the baseline suite (the suite on both versions and twice on the original), within this cap and the run's own time left; its checkout's setup is not counted. The default leaves that floor whole for a suite of up to 10 s. A look its time cuts short (or whose search for rival patches stops for time) is `review`, never `verified`: raise this for a slow suite.",
          ),
      })
      .strict()
      .default({ enabled: true, timeBudget: 120 }),
    pr: z
      .object({
        draft: z
          .enum(['unless-verified', 'always'])
          .default('unless-verified')
          .describe('Open pull requests as drafts always, or unless fully verified.'),
        labels: z.array(z.string().min(1)).default([]).describe('Labels put on fixloop pull requests.'),
        branchPrefix: z.string().min(1).default('fixloop/').describe('Prefix of fixloop branch names.'),
      })
      .strict()
      .default({ draft: 'unless-verified', labels: [], branchPrefix: 'fixloop/' }),
  })
  .strict();

export type RepoConfig = z.output<typeof repoConfigSchema>;
export type RepoConfigInput = z.input<typeof repoConfigSchema>;

export function defaultRepoConfig(): RepoConfig {
  return repoConfigSchema.parse({});
}
