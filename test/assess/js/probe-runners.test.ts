// The instrumented code under real test runners: a TypeScript module under vitest (transformed, run in
// its workers), a CommonJS module under jest (babel-jest, a vm context per test file) and under mocha.
// Each run is one small project in a temporary folder with fixloop's node_modules linked in.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, NODE24, instrumentInto, of, records, removeProjects, run, tempProject, writeInto } from './probe-run.ts';

afterAll(removeProjects);

const RUNNERS = path.join(FIXTURES, 'runners');
const runnerFixture = (name: string) => readFileSync(path.join(RUNNERS, name), 'utf8');
const bin = (relative: string) => path.resolve('node_modules', relative);

describe('under vitest, a TypeScript module', () => {
  it('still transforms and passes, and records its plain function and its method', () => {
    const root = tempProject(true);
    writeInto(root, 'package.json', '{ "type": "module" }\n');
    instrumentInto(root, 'src/url.ts', runnerFixture('url.ts'));
    writeInto(root, 'src/url.test.ts', runnerFixture('url-suite.ts'));
    const result = run(NODE24, [bin('vitest/vitest.mjs'), 'run', '--root', root, '--pool', 'forks'], root, { CI: '1' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const all = records(root);
    expect(of(all, 'src/url.ts#splitScheme', 'suite')).toEqual([
      {
        fn: 'src/url.ts#splitScheme',
        args: "'HTTP://x.org'",
        kind: 'suite',
        out: { returned: "{ scheme: 'http', rest: 'x.org' }" },
        path: [0, 1, 3],
        site: 'src/url.test.ts:6',
        replay: '["HTTP://x.org"]',
      },
    ]);
    expect(of(all, 'src/url.ts#splitScheme', 'generated')).toContainEqual({
      fn: 'src/url.ts#splitScheme',
      args: "'TTP://x.org'",
      kind: 'generated',
      base: "'HTTP://x.org'",
      out: { returned: "{ scheme: 'ttp', rest: 'x.org' }" },
      path: [0, 1, 3],
    });
    expect(of(all, 'src/url.ts#Router.add', 'suite').map((r) => [r.args, r.out])).toEqual([
      ["'/a'", { returned: '1' }],
      ["'/b'", { returned: '2' }],
    ]);
  });
});

describe('under jest, a CommonJS module', () => {
  it('still passes, and records the suite call with its test file and line, and the generated ones', () => {
    const root = tempProject(true);
    writeInto(root, 'package.json', '{ "jest": { "testEnvironment": "node" } }\n');
    instrumentInto(root, 'words.js', runnerFixture('words.js'));
    writeInto(root, 'words.test.js', runnerFixture('words.test.js'));
    const result = run(NODE24, [bin('jest/bin/jest.js'), '--rootDir', root, '--watchman=false', '--ci'], root);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const all = records(root);
    expect(of(all, 'words.js#capitalize', 'suite')).toEqual([
      {
        fn: 'words.js#capitalize',
        args: "'hello'",
        kind: 'suite',
        out: { returned: "'Hello'" },
        path: [0],
        site: 'words.test.js:4',
        replay: '["hello"]',
      },
    ]);
    expect(of(all, 'words.js#capitalize', 'generated')).toContainEqual({
      fn: 'words.js#capitalize',
      args: "''",
      kind: 'generated',
      base: "'hello'",
      out: { returned: "''" },
      path: [0],
    });
  });
});

describe('under mocha, a CommonJS module required from an ES module spec', () => {
  it('still passes and records', () => {
    const root = tempProject(true);
    instrumentInto(root, 'words.js', runnerFixture('words.js'));
    writeInto(root, 'test/words.spec.mjs', runnerFixture('words.spec.mjs').replace("'./words.js'", "'../words.js'"));
    const result = run(NODE24, [bin('mocha/bin/mocha.js'), 'test/words.spec.mjs'], root);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const all = records(root);
    expect(of(all, 'words.js#capitalize', 'suite')).toEqual([
      {
        fn: 'words.js#capitalize',
        args: "'hello'",
        kind: 'suite',
        out: { returned: "'Hello'" },
        path: [0],
        site: 'test/words.spec.mjs:7',
        replay: '["hello"]',
      },
    ]);
    expect(of(all, 'words.js#capitalize', 'generated').map((r) => r.args)).toEqual(
      expect.arrayContaining(["'ello'", "'hell'", "'HELLO'"]),
    );
  });
});
