// A file the test command or a runner's setup keys name is the harness, whatever its own name: a fix
// put there is on in the tests' run and off for every user. Files they do not name stay the code's.
import { afterEach, describe, expect, it } from 'vitest';
import { commandTexts, harnessNamedFiles, keyedValues, optionValues } from '../../src/verify/harness-named-files.ts';
import { runnerFileFindings } from '../../src/verify/runner-files.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const made: string[] = [];
afterEach(() => removeAll(made));

/** A git repository holding `files`, committed. */
async function checkout(files: Record<string, string>): Promise<string> {
  const dir = await makeRepo(files);
  made.push(dir);
  return dir;
}

describe('files the harness names', () => {
  it('reads the loading options of a command, however they are written', () => {
    expect(optionValues('node --env-file-if-exists=.env.ci --test')).toEqual(['.env.ci']);
    expect(optionValues('NODE_OPTIONS="--require ./hooks/register.cjs" node --import=./boot.mjs --test')).toEqual([
      './hooks/register.cjs',
      './boot.mjs',
    ]);
    expect(optionValues('mocha -r ts-node/register --file test/root.js --reporter dot')).toEqual([
      'ts-node/register',
      'test/root.js',
    ]);
    expect(optionValues('node --test --test-reporter=spec')).toEqual([]);
  });

  it('follows the test command through the package scripts it calls, pre-scripts included', () => {
    const scripts = {
      pretest: 'npm run build',
      test: 'npm run lint && pnpm unit',
      unit: 'node --test',
      build: 'tsc',
      lint: 'eslint .',
    };
    expect(commandTexts('npm test', scripts)).toEqual([
      'npm test',
      'npm run build',
      'npm run lint && pnpm unit',
      'tsc',
      'eslint .',
      'node --test',
    ]);
  });

  it("reads a setup key's files from a configuration's code and from its data", () => {
    const jest =
      "module.exports = {\n  testMatch: ['<rootDir>/test/**/*.test.js'],\n  setupFiles: ['<rootDir>/src/env.js', \"./src/more\"],\n};\n";
    expect(keyedValues('jest.config.js', jest, 'setupFiles')).toEqual(['<rootDir>/src/env.js', './src/more']);
    expect(keyedValues('vitest.config.ts', "export default { test: { globalSetup: './boot.ts' } }", 'globalSetup')).toEqual([
      './boot.ts',
    ]);
    expect(keyedValues('.mocharc.yml', 'require:\n  - ./src/register.js\nreporter: dot\n', 'require')).toEqual([
      './src/register.js',
    ]);
    expect(keyedValues('.mocharc.json', '{"file": "lib/root-hooks.js"}', 'file')).toEqual(['lib/root-hooks.js']);
  });

  it('names the existing files of a checkout, and refuses a change to one', async () => {
    const dir = await checkout({
      'package.json': JSON.stringify({ scripts: { test: 'npm run unit', unit: 'node --env-file-if-exists=.env.ci --test' } }),
      '.env.ci': 'TZ=UTC\n',
      'jest.config.js': "module.exports = { setupFiles: ['<rootDir>/src/polyfills.js', 'jest-canvas-mock'] };\n",
      'src/polyfills.js': '',
      'src/index.js': '',
    });
    const named = await harnessNamedFiles(dir, 'npm test');
    expect([...named.keys()].sort()).toEqual(['.env.ci', 'src/polyfills.js']);
    const change = (path: string) => ({ path, kind: 'modified' as const, added: 1, removed: 0, binary: false });
    const findings = runnerFileFindings([change('src/polyfills.js'), change('src/index.js')], [], new Set(), named);
    expect(findings.map((f) => [f.path, f.message])).toEqual([
      ['src/polyfills.js', expect.stringContaining('`jest.config.js` names it in `setupFiles`')],
    ]);
  });

  it('names nothing for a module name, a folder, or a file outside the checkout', async () => {
    const dir = await checkout({
      '.mocharc.json': JSON.stringify({ require: ['chai/register-expect.js', 'test'], file: ['../outside.js'] }),
      'test/a.test.js': '',
    });
    expect([...(await harnessNamedFiles(dir, 'mocha')).keys()]).toEqual([]);
  });
});
