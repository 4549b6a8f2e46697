// The assessment's probed runs leave out the test command's check steps (src/assess/probed-command.ts):
// a linter run on instrumented files fails and stops the chain before the tests. Only a plain `&&`
// chain, through npm scripts with their pre and post scripts, where npm adds nothing to the processes.
import { describe, expect, it } from 'vitest';
import { withoutCheckSteps } from '../../src/assess/probed-command.ts';
import type { DirectLaunch } from '../../src/runners/direct-launch.ts';

const BINS = 'PATH="$PWD/node_modules/.bin:$PATH"';
const launch = (scripts: Record<string, string>, npmShapesProcesses = false): DirectLaunch => ({
  bins: new Set(),
  scripts,
  npmShapesProcesses,
});

describe('the probed runs’ command', () => {
  it('leaves out the checks of npm scripts, followed into the scripts they run, with their pre and post scripts', () => {
    const scripts = { test: 'standard && borp && npm run test:typescript', 'test:typescript': 'tsd' };
    expect(withoutCheckSteps('npm test', launch(scripts))).toBe(`${BINS} borp && tsd`);
    const around = { pretest: 'eslint .', test: 'jest', posttest: 'prettier --check src' };
    expect(withoutCheckSteps('npm t', launch(around))).toBe(`${BINS} jest`);
    const nested = {
      test: 'npm run test:jest && npm run lint',
      'test:jest': 'jest',
      lint: 'npm run lint:es',
      'lint:es': 'eslint .',
    };
    expect(withoutCheckSteps('npm test', launch(nested))).toBe(`${BINS} jest`);
    expect(withoutCheckSteps('npx standard && node --test', launch({}))).toBe(`${BINS} node --test`);
  });

  it('keeps the command as it is where it runs no check', () => {
    expect(withoutCheckSteps('npm test', launch({ test: 'jest && tsd' }))).toBeNull();
    expect(withoutCheckSteps('node --test', launch({}))).toBeNull();
  });

  it('keeps it where the chain does not run without npm as it runs with it', () => {
    // Not a plain chain: an `||`, a `;`, a pipe, a variable npm sets.
    for (const test of [
      'eslint . || true && jest',
      'eslint .; jest',
      'eslint . && jest | tee out',
      'eslint . && jest $npm_config_args',
    ])
      expect(withoutCheckSteps('npm test', launch({ test }))).toBeNull();
    // A script it names that package.json does not define, or one that runs only checks.
    expect(withoutCheckSteps('npm test', launch({ test: 'eslint . && npm run unit' }))).toBeNull();
    expect(withoutCheckSteps('npm test', launch({ test: 'eslint . && prettier --check .' }))).toBeNull();
    // An .npmrc that changes the processes npm starts (node-options, script-shell).
    expect(withoutCheckSteps('npm test', launch({ test: 'eslint . && jest' }, true))).toBeNull();
  });
});
