// A test command that lints before it tests (`eslint src && node --test`, through npm's script), end
// to end with the real `fixloop run`: the judge runs it as it is, the assessment's probed runs without
// the lint step (src/assess/probed-command.ts), since the probed versions' instrumented files fail the
// linter (here a cap on a line's length: the instrumentation writes its code on the source's own
// lines, which keeps their numbers) and the chain would stop before the tests.
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixloopRun, removeScriptedRuns } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';
import { FIXED_PAGES, PAGES_PROJECT } from '../fixtures/page-count.ts';

afterAll(removeScriptedRuns);

/** fixloop's node_modules, linked as the repository's own: its ESLint is the repository's. */
const MODULES = resolve(import.meta.dirname, '../../node_modules');

const LINTED_PAGES = {
  ...PAGES_PROJECT,
  '.gitignore': 'node_modules\n',
  'package.json': '{ "name": "pages", "private": true, "scripts": { "test": "eslint src && node --test" } }\n',
  'eslint.config.js': "module.exports = [{ files: ['**/*.js'], rules: { 'max-len': ['error', 100] } }];\n",
};

describe('the assessment of a suite whose test command lints first', () => {
  it('runs its probed versions without the lint step, and looks', async () => {
    const { result } = await fixloopRun(LINTED_PAGES, 'npm test', [
      ...['--setup', `ln -sfn ${MODULES} node_modules`, '--sandbox', 'process'],
      ...['--engine', 'script', '--script', writeFile('src/pages.js', FIXED_PAGES), '--max-attempts', '1'],
    ]);
    expect(result.status).toBe('tests_green');
    expect(result.events.map((e) => e.message)).toContain(
      'assessment: the probed runs leave out the test command\'s checks: `PATH="$PWD/node_modules/.bin:$PATH" node --test`',
    );
    expect(result.assessment?.notAssessed).toBeUndefined();
    expect(result.assessment?.level).toBe('verified');
  });
});
