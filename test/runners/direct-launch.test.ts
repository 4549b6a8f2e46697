// A focused command started without npm: `npx <bin>` and `npm test -- …` become the bin started
// through the shell, with the checkout's bin folder first on PATH, only where npm would add nothing
// the process needs; what the checkout offers is read from its files.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directLaunchOf, withoutLauncher, type DirectLaunch } from '../../src/runners/direct-launch.ts';
import { focusChoices } from '../../src/runners/focused-test-command.ts';

const BIN_PATH = 'PATH="$PWD/node_modules/.bin:$PATH"';
const launch = (scripts: Record<string, string> = {}, npmShapesProcesses = false): DirectLaunch => ({
  bins: new Set(['mocha', 'vitest', 'cross-env']),
  scripts,
  npmShapesProcesses,
});

describe('withoutLauncher', () => {
  it('starts an npx bin the checkout has through the shell, its arguments as they were', () => {
    expect(withoutLauncher("npx mocha test/ --check-leaks -g 'a b'", launch())).toBe(
      `${BIN_PATH} mocha test/ --check-leaks -g 'a b'`,
    );
    expect(withoutLauncher('npx vitest run src/a.test.ts -t x', launch())).toBe(`${BIN_PATH} vitest run src/a.test.ts -t x`);
  });

  it("starts pnpm's and yarn's bins the same way, where no script of that name runs first", () => {
    expect(withoutLauncher("pnpm vitest run -t 'a b'", launch())).toBe(`${BIN_PATH} vitest run -t 'a b'`);
    expect(withoutLauncher('pnpm exec mocha -g x', launch())).toBe(`${BIN_PATH} mocha -g x`);
    expect(withoutLauncher('yarn mocha -g x', launch())).toBe(`${BIN_PATH} mocha -g x`);
    expect(withoutLauncher('pnpm mocha -g x', launch({ mocha: 'mocha --recursive' }))).toBeNull();
    expect(withoutLauncher('pnpm exec mocha -g x', launch({ mocha: 'mocha --recursive' }))).toBe(`${BIN_PATH} mocha -g x`);
    expect(withoutLauncher('pnpm jest -t x', launch())).toBeNull();
    expect(withoutLauncher('pnpm run test -g x', launch({ test: 'mocha' }))).toBe(`${BIN_PATH} mocha -g x`);
  });

  it('leaves npx alone for a bin the checkout lacks, or an option of npx’s own', () => {
    expect(withoutLauncher('npx jest -t x', launch())).toBeNull();
    expect(withoutLauncher('npx --yes mocha -g x', launch())).toBeNull();
    expect(withoutLauncher('npx -p mocha mocha -g x', launch())).toBeNull();
  });

  it('runs an npm script’s text with the arguments npm would append', () => {
    expect(withoutLauncher("npm test -- -g 'a b'", launch({ test: 'mocha --recursive' }))).toBe(
      `${BIN_PATH} mocha --recursive -g 'a b'`,
    );
    expect(withoutLauncher('npm run unit -- -t x', launch({ unit: 'NODE_ENV=test cross-env A=1 vitest run' }))).toBe(
      `${BIN_PATH} NODE_ENV=test cross-env A=1 vitest run -t x`,
    );
    expect(withoutLauncher('npm test -- --test-name-pattern=x', launch({ test: 'node --test' }))).toBe(
      `${BIN_PATH} node --test --test-name-pattern=x`,
    );
  });

  it('leaves a script to npm where npm adds to it: its pre and post scripts, its variables, a program it lacks', () => {
    expect(withoutLauncher('npm test -- -g x', launch({ test: 'mocha', pretest: 'tsc' }))).toBeNull();
    expect(withoutLauncher('npm test -- -g x', launch({ test: 'mocha', posttest: 'eslint .' }))).toBeNull();
    expect(withoutLauncher('npm test -- -g x', launch({ test: 'mocha $npm_package_config_spec' }))).toBeNull();
    expect(withoutLauncher('npm test -- -g x', launch({ test: 'ava' }))).toBeNull();
    expect(withoutLauncher('npm test -- -g x', launch({}))).toBeNull();
  });

  it('leaves everything to npm when the checkout’s npm settings shape the processes it starts', () => {
    expect(withoutLauncher('npx mocha -g x', launch({}, true))).toBeNull();
    expect(withoutLauncher('npm test -- -g x', launch({ test: 'mocha' }, true))).toBeNull();
  });

  it('leaves a command npm does not start as it is', () => {
    expect(withoutLauncher('mocha -g x', launch())).toBeNull();
    expect(withoutLauncher('python -m pytest -k x', launch())).toBeNull();
  });
});

describe('directLaunchOf', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('reads the bins and the npm settings that shape processes from the checkout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-launch-'));
    dirs.push(dir);
    expect(await directLaunchOf(dir, {})).toEqual({ bins: new Set(), scripts: {}, npmShapesProcesses: false });
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
    await writeFile(join(dir, 'node_modules/.bin/mocha'), '');
    await writeFile(join(dir, '.npmrc'), 'fund=false\npackage-lock=false\n');
    expect(await directLaunchOf(dir, { test: 'mocha' })).toEqual({
      bins: new Set(['mocha']),
      scripts: { test: 'mocha' },
      npmShapesProcesses: false,
    });
    await writeFile(join(dir, '.npmrc'), 'fund=false\nnode-options=--experimental-vm-modules\n');
    expect((await directLaunchOf(dir, {})).npmShapesProcesses).toBe(true);
  });
});

describe('focusChoices with a direct launch', () => {
  it('offers each selection started without npm first, then as npm starts it', () => {
    const failing = [{ id: 'a b', name: 'b', file: 'test/a.js', status: 'failed' as const }];
    expect(focusChoices('npx mocha', failing, {}, launch()).map((c) => [c.command, c.direct ?? false])).toEqual([
      [`${BIN_PATH} mocha --grep b`, true],
      ['npx mocha --grep b', false],
    ]);
    expect(focusChoices('npx mocha', failing, {}).every((c) => !c.direct)).toBe(true);
  });
});
