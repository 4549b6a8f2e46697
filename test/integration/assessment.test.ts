// Right, not only green (docs/design.md §3.3), end to end with the real `fixloop run`: the `script`
// engine playing an engine whose patch passes the suite (an overfitting patch, `&&` turned into
// `||`, ends `tests_green` at level `review` with the generated input whose result changed; the real
// fix of the same bug stays `verified`; a wrong patch that only a rival edit of its line tells apart
// ends `review` with the inputs where they disagree), and the repair engine passing over a first
// plausible patch that turns a validation off for the real fix, published at `verified`; a fix to a
// writer of a closure's state seen through the reader beside it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { fixloopRun, removeScriptedRuns, scriptedRun } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';
import { KEYWORD_PROJECT, KEYWORD_RULES_FIXED, KEYWORD_RULES_OVERBROAD } from '../fixtures/keyword-table.ts';
import { FIXED_PATHS, OVERFIT_PATHS, PATHS_PROJECT, VOLUME_PROJECT } from '../fixtures/overfit-paths.ts';
import { OUTER_PATHS_PROJECT, OVERFIT_ROOTED } from '../fixtures/outer-paths.ts';
import { FIXED_PAGES, OVERFIT_PAGES, PAGES_PROJECT } from '../fixtures/page-count.ts';
import { STYLE_PROJECT, STYLES_FIXED } from '../fixtures/style-table.ts';
import { FIXED_RECEIPT, RECEIPT_PROJECT, SPECIAL_CASED_RECEIPT } from '../fixtures/receipt-noise.ts';
import { COUNTER_PROJECT, FIXED_COUNTER } from '../fixtures/closure-counter.ts';
import { FIXED_OPTIONS, OPTIONS_PROJECT } from '../fixtures/nested-options.ts';
import { fullSuite } from '../support/suite-tier.ts';
import { BESIDE_LOOK_FROM_SUITE_MS } from '../../src/assess/early-rivals.ts';

afterAll(removeScriptedRuns);

/** The default `repair` engine. */
function repairRun(files: Record<string, string>): Promise<{ result: RunResult; code: number | null }> {
  return fixloopRun(files, 'node --test', ['--sandbox', 'process']);
}

async function runWith(patched: string, sandbox: string): Promise<{ result: RunResult; code: number | null }> {
  return scriptedRun(PATHS_PROJECT, 'node --test', writeFile('src/paths.js', patched), sandbox);
}

describe('the assessment of a judged patch', () => {
  it('shows an overfitting patch at review, with the input whose result changed outside the failing tests', async () => {
    const { result, code } = await runWith(OVERFIT_PATHS, 'auto');
    expect(result.status).toBe('tests_green');
    expect(result.verification?.passed).toBe(true);
    const assessment = result.assessment;
    expect(assessment?.level).toBe('review');
    expect(assessment?.probed).toEqual(['src/paths.js:3 isAbsolute']);
    const outside = assessment?.behaviourChanges.filter((c) => !c.nearFailing) ?? [];
    expect(outside).toContainEqual(
      expect.objectContaining({
        kind: 'generated',
        function: 'isAbsolute',
        location: 'src/paths.js:3',
        input: "isAbsolute('usr/lib')",
        before: 'false',
        after: 'true',
      }),
    );
    expect(assessment?.reason).toMatch(/^\d+ behaviour changes? outside the failing tests$/);
    // Already at review: the rivals of its line, which cost a run each, are not looked for.
    expect(assessment?.rivalSearch).toBeUndefined();
    expect(code).toBe(4);
  });

  it.runIf(fullSuite)('keeps the real fix verified: its only changes are at the failing test’s input and around it', async () => {
    const { result, code } = await runWith(FIXED_PATHS, 'process');
    expect(result.status).toBe('tests_green');
    const assessment = result.assessment;
    expect(assessment?.level).toBe('verified');
    expect(assessment?.behaviourChanges.every((c) => c.nearFailing)).toBe(true);
    expect(assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({ input: "isAbsolute('C:\\\\x')", before: 'false', after: 'true', nearFailing: true }),
    );
    expect(assessment?.counts.generatedInputs).toBeGreaterThan(10);
    expect(assessment?.budget.exhausted).toBe(false);
    expect(code).toBe(0);
  });

  it.runIf(fullSuite)(
    'publishes the real fix at verified when the first patch the tests accept turns a validation off',
    async () => {
      const { result, code } = await repairRun(VOLUME_PROJECT);
      expect(result.status).toBe('tests_green');
      // The range check stays whole: the operator that rejected the top level is the fix.
      expect(result.patch).toContain('+  if (n < 0 || n > 10) {');
      expect(result.assessment?.level).toBe('verified');
      const passedOver = result.assessment?.alternatives.find((a) => a.summary.includes('honor-option'));
      expect(passedOver?.passedOver).toMatch(/weakens the check that throws "Invalid level"/);
      expect(code).toBe(0);
    },
    // The repair engine's exploration, the judge and the assessment: 51 s alone, past 60 s beside the full tier's other files.
    120_000,
  );
});

/** The one-edit rival of the page count's line that passes its failing test and disagrees with the overfitting patch. */
const CEIL_RIVAL = 'src/pages.js:4 `.floor(…)` → `.ceil(…)` (template min-max)';

describe("another engine's patch in a function only the failing test calls", () => {
  // Every input generated around the failing test's call is near it: compared with the original
  // alone, a wrong patch would show no change outside the failing tests. The `script` engine offers
  // no alternative, so the assessment tries the one-edit patches of the line itself.
  const runPages = (patched: string) => scriptedRun(PAGES_PROJECT, 'node --test', writeFile('src/pages.js', patched));

  it.runIf(fullSuite)(
    'is review when a one-edit patch of the same line also passes and gives other results, with the inputs',
    async () => {
      const { result, code } = await runPages(OVERFIT_PAGES);
      expect(result.status).toBe('tests_green');
      const assessment = result.assessment;
      expect(assessment?.level).toBe('review');
      expect(assessment?.reason).toBe('1 other plausible patch gives other results: the tests do not decide between them');
      expect(assessment?.behaviourChanges.filter((c) => !c.nearFailing)).toEqual([]);
      expect(assessment?.alternatives).toEqual([expect.objectContaining({ foundBy: 'assessment', summary: CEIL_RIVAL })]);
      expect(assessment?.alternatives[0]?.disagreements).toContainEqual({
        input: 'pageCount(9, 3)',
        chosen: '4',
        alternative: '3',
      });
      expect(assessment?.rivalSearch).toMatchObject({ passedFailing: 1 });
      expect(code).toBe(4);
      const report = await readFile(join(result.artifactsDir, 'report.md'), 'utf8');
      expect(report).toContain('(a one-edit patch fixloop tried at a line this patch changed). Disagrees on:');
      expect(report).toContain('- `pageCount(9, 3)`: `4` with this patch, `3` with that one');
    },
  );

  it.runIf(fullSuite)(
    'stays verified when no one-edit patch of its lines passes the failing test, some set aside unrun by the screen',
    async () => {
      const { result, code } = await runPages(FIXED_PAGES);
      expect(result.status).toBe('tests_green');
      expect(result.assessment?.level).toBe('verified');
      expect(result.assessment?.alternatives).toEqual([]);
      const search = result.assessment?.rivalSearch;
      expect(search?.passedFailing).toBe(0);
      expect(search?.stopped).toBeUndefined();
      // Those that give the original's page count for the failing test's call, made in a plain
      // process, never run the test; the others do (rival-screen.ts).
      expect(search?.screened).toBeGreaterThan(0);
      expect(search?.tried).toBeGreaterThan(0);
      expect((search?.tried ?? 0) + (search?.screened ?? 0)).toBe(search?.candidates);
      const report = await readFile(join(result.artifactsDir, 'report.md'), 'utf8');
      expect(report).toContain(`${search?.screened} set aside unrun: outside the runner they give the original's result`);
      expect(code).toBe(0);
    },
  );
});

describe('the search for rivals begun beside the look, on a suite that takes seconds', () => {
  // A test file apart sleeps past early-rivals.ts's threshold: the look's whole-suite runs take
  // seconds, the failing tests alone do not, so the search runs candidates while the look does.
  const SLOW_PAGES_PROJECT = {
    ...PAGES_PROJECT,
    'test/slow.test.js': `const test = require('node:test');
test('takes a while', () => new Promise((resolve) => setTimeout(resolve, ${BESIDE_LOOK_FROM_SUITE_MS + 300})));
`,
  };

  it.runIf(fullSuite)(
    'finds the rival that disagrees while the look still runs, and shows it: review',
    async () => {
      const { result, code } = await scriptedRun(SLOW_PAGES_PROJECT, 'node --test', writeFile('src/pages.js', OVERFIT_PAGES));
      expect(result.status).toBe('tests_green');
      expect(result.assessment?.level).toBe('review');
      expect(result.assessment?.alternatives).toEqual([expect.objectContaining({ foundBy: 'assessment', summary: CEIL_RIVAL })]);
      const messages = result.events.map((e) => e.message);
      const searching = messages.findIndex((m) => m.startsWith('assessment: trying '));
      const lookDone = messages.findIndex((m) => m.startsWith('assessment: original: '));
      expect(searching).toBeGreaterThan(-1);
      expect(searching).toBeLessThan(lookDone);
      expect(code).toBe(4);
    },
    180_000,
  );
});

describe("the repair engine's patch when the failing test accepts more than one result", () => {
  it.runIf(fullSuite)(
    "is review: a rival edit of the same line also passes and gives the failing test's own call another result",
    async () => {
      // The failing test only matches a part of the help text. `.push('')` → `.unshift('')` passes it
      // (the blank line moves to the top) and comes first in the engine's order; deleting the line, the
      // real fix, passes too, and is passed over as a removed call. Both are plausible and the test
      // does not say which output is right: the reviewer sees both.
      const { result, code } = await repairRun({
        'package.json': '{ "name": "helptext", "private": true }\n',
        'src/help.js': [
          'function helpText(command) {',
          "  const lines = [command.description, ''];",
          '  if (command.args.length > 0) {',
          "    lines.push('Arguments:');",
          "    lines.push('');",
          "    command.args.forEach((arg) => lines.push('  ' + arg));",
          '  }',
          "  return lines.join('\\n');",
          '}',
          'module.exports = { helpText };',
          '',
        ].join('\n'),
        'test/help.test.js': [
          "const test = require('node:test');",
          "const assert = require('node:assert/strict');",
          "const { helpText } = require('../src/help.js');",
          "test('shows the description alone', () => assert.equal(helpText({ description: 'copy files', args: [] }), 'copy files\\n'));",
          "test('lists the arguments right below their title', () => assert.match(helpText({ description: 'copy files', args: ['source'] }), /Arguments:\\n {2}source/));",
          '',
        ].join('\n'),
      });
      expect(result.status).toBe('tests_green');
      expect(result.patch).toContain("+    lines.unshift('');");
      expect(result.assessment?.level).toBe('review');
      expect(result.assessment?.reason).toContain(
        '1 other plausible patch gives other results: the tests do not decide between them',
      );
      const deleted = result.assessment?.alternatives.find((a) => a.summary.includes('delete-statement'));
      expect(deleted?.passedOver).toBe("it removes the call `lines.push('')`");
      expect(deleted?.disagreements[0]).toEqual({
        input: "helpText({ description: 'copy files', args: ['source'] })",
        chosen: "'\\ncopy files\\n\\nArguments:\\n  source'",
        alternative: "'copy files\\n\\nArguments:\\n  source'",
        atFailingTests: true,
      });
      expect(code).toBe(4);
    },
  );
});

describe('the assessment of a patch to an internal function the tests reach through a public one', () => {
  it.runIf(fullSuite)(
    'shows the change outside the failing tests at the public function too, with the input given to it',
    async () => {
      const { result, code } = await scriptedRun(OUTER_PATHS_PROJECT, 'node --test', writeFile('src/rooted.js', OVERFIT_ROOTED));
      expect(result.status).toBe('tests_green');
      const assessment = result.assessment;
      expect(assessment?.level).toBe('review');
      const outside = assessment?.behaviourChanges.filter((c) => !c.nearFailing) ?? [];
      expect(outside).toContainEqual(expect.objectContaining({ function: 'isRooted', before: 'false', after: 'true' }));
      expect(outside).toContainEqual(
        expect.objectContaining({ function: 'isAbsolute', location: 'src/paths.js:3', before: 'false', after: 'true' }),
      );
      expect(assessment?.atEntryPoints).toBeUndefined();
      expect(code).toBe(4);
    },
  );
});

describe('the assessment of a patch the suite reaches only through other code (a table)', () => {
  async function runRules(rules: string): Promise<{ result: RunResult; code: number | null }> {
    // Without the installed pytest plugins' autoload (~2 s of every pytest start here): none is about them.
    return scriptedRun(
      { ...KEYWORD_PROJECT, 'fixloop.yml': 'env:\n  PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1"\n' },
      'python3 -m pytest -q',
      writeFile('lexer/rules.py', rules),
    );
  }

  it.runIf(fullSuite)(
    'probes the function the failing test calls: the right row is verified, seen at work on the failing test’s input',
    async () => {
      const { result, code } = await runRules(KEYWORD_RULES_FIXED);
      expect(result.status).toBe('tests_green');
      const assessment = result.assessment;
      expect(assessment).toMatchObject({ level: 'verified', atEntryPoints: true, probed: ['lexer/__init__.py:6 tokenize'] });
      expect(assessment?.reason).toMatch(/at the functions the failing tests call \(the suite reaches no changed function\)$/);
      expect(assessment?.behaviourChanges).toContainEqual(
        expect.objectContaining({ kind: 'suite', input: "tokenize('order by x')", nearFailing: true }),
      );
      expect(code).toBe(0);
    },
  );

  it.runIf(fullSuite)('shows an overbroad row at review, with the passing test’s call whose result it changed', async () => {
    const { result, code } = await runRules(KEYWORD_RULES_OVERBROAD);
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('review');
    expect(result.assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({
        kind: 'suite',
        input: "tokenize('sort by name')",
        before: "[('name', 'sort'), ('name', 'by'), ('name', 'name')]",
        after: "[('keyword', 'sort by'), ('name', 'name')]",
        nearFailing: false,
      }),
    );
    expect(code).toBe(4);
  });
});

describe('the assessment of a patch whose changed functions show no change (a function only the patch has)', () => {
  it('probes the function the failing test calls and sees the fix at work there: verified', async () => {
    const { result, code } = await scriptedRun(STYLE_PROJECT, 'node --test', writeFile('src/styles.js', STYLES_FIXED));
    expect(result.status).toBe('tests_green');
    const assessment = result.assessment;
    expect(assessment).toMatchObject({ level: 'verified', atEntryPoints: true });
    expect(assessment?.probed).toContain('src/format.js:4 styled');
    expect(assessment?.reason).toMatch(/at the functions the failing tests call \(the changed functions showed no change\)$/);
    expect(assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({
        kind: 'suite',
        input: "styled('hello world', 'title')",
        before: 'throws Error: unknown style: title',
        after: "'Hello World'",
        nearFailing: true,
      }),
    );
    expect(code).toBe(0);
  });
});

describe('the assessment of a patch that works through state: a setter the test runs before a reader', () => {
  it('is seen through the function the failing test calls, whose call is not made alone outside the runner: verified, not refused', async () => {
    const files = {
      'package.json': '{ "name": "scales", "type": "module", "private": true }\n',
      'src/scale.js':
        'const state = { factor: 1 };\n\nexport function configure() {\n  state.factor = 1;\n}\n\nexport function scale(x) {\n  return x * state.factor;\n}\n',
      'test/scale.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { configure, scale } from '../src/scale.js';\n\ntest('scales by two once configured', () => {\n  configure();\n  assert.equal(scale(3), 6);\n});\n\ntest('scales zero', () => {\n  assert.equal(scale(0), 0);\n});\n",
    };
    const { result, code } = await scriptedRun(
      files,
      'node --test',
      "sed -i 's/state.factor = 1;$/state.factor = 2;/' src/scale.js",
    );
    // The setter returns nothing in both versions; the reader the failing test calls shows the fix at
    // work. Made alone in a plain process, the reader would give the original's 3 (no setter ran
    // first), which once refused this honest patch as acting only under the runner.
    expect(result.status).toBe('tests_green');
    expect(result.assessment).toMatchObject({ level: 'verified', atEntryPoints: true });
    expect(result.assessment?.probed).toEqual(['src/scale.js:3 configure', 'src/scale.js:7 scale']);
    expect(result.assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({ kind: 'suite', input: 'scale(3)', before: '3', after: '6', nearFailing: true }),
    );
    expect(result.assessment?.outsideLook).toMatchObject({ called: 0, runnerOnly: [], notCalled: { state: 1 } });
    expect(code).toBe(0);
  });
});

describe('the assessment of a patch whose failing test cannot run alone, reaching the function through other code', () => {
  it("tells the failing test's calls by the test lines on their stack: the fix seen there is verified", async () => {
    // `true && node --test` cannot be focused on one test, and every call comes through src/bundle.js
    // (as cssstyle's tests reach its parsers through a bundle its build generates).
    const files = {
      'package.json': '{ "name": "spaces", "private": true }\n',
      'src/text.js': "function collapse(text) {\n  return text.replace(/ +/, ' ');\n}\nmodule.exports = { collapse };\n",
      'src/bundle.js': "const { collapse } = require('./text.js');\nexports.set = (value) => collapse(value);\n",
      'test/text.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        "const { set } = require('../src/bundle.js');",
        "test('keeps a word alone', () => assert.equal(set('abc'), 'abc'));",
        "test('collapses every run of spaces', () => assert.equal(set('a  b  c'), 'a b c'));",
        '',
      ].join('\n'),
    };
    const { result, code } = await scriptedRun(files, 'true && node --test', "sed -i 's|/ +/,|/ +/g,|' src/text.js");
    expect(result.status).toBe('tests_green');
    const assessment = result.assessment;
    expect(assessment?.level).toBe('verified');
    expect(assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({
        kind: 'suite',
        input: "collapse('a  b  c')",
        before: "'a b  c'",
        after: "'a b c'",
        test: 'test/text.test.js:5',
        nearFailing: true,
      }),
    );
    expect(code).toBe(0);
  });
});

describe('the assessment of a program whose results carry a random id and a timestamp', () => {
  const runReceipt = (patched: string) => scriptedRun(RECEIPT_PROJECT, 'node --test', writeFile('src/receipt.js', patched));

  it.runIf(fullSuite)(
    'masks what differs between two runs of the original and sees the real change beside it: the fix is verified',
    async () => {
      const { result, code } = await runReceipt(FIXED_RECEIPT);
      expect(result.status).toBe('tests_green');
      const assessment = result.assessment;
      expect(assessment?.behaviourChanges.filter((c) => !c.nearFailing)).toEqual([]);
      const atFailing = assessment?.behaviourChanges.find((c) => c.kind === 'suite' && c.input === 'receipt([100])');
      expect(atFailing?.before).toContain('total: 100');
      expect(atFailing?.after).toContain('total: 90');
      expect(assessment?.specialCase).toBeUndefined();
      expect(assessment?.level).toBe('verified');
      expect(code).toBe(0);
    },
  );

  it('is review when the patch special-cases the failing test’s literal input, named as such', async () => {
    const { result, code } = await runReceipt(SPECIAL_CASED_RECEIPT);
    expect(result.status).toBe('tests_green');
    const assessment = result.assessment;
    expect(assessment?.level).toBe('review');
    expect(assessment?.specialCase?.inputs).toEqual(['receipt([100])']);
    expect(assessment?.reason).toContain('changes behaviour only at the failing tests’ own inputs');
    expect(code).toBe(4);
  });
});

describe('the assessment of a patch to a writer of a closure’s state', () => {
  it('sees the fix at work through the reader beside it in the changed file, which the failing test calls', async () => {
    const { result } = await scriptedRun(COUNTER_PROJECT, 'node --test', writeFile('src/counter.js', FIXED_COUNTER), 'process');
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.atEntryPoints).toBe(true);
    expect(result.assessment?.reason).not.toMatch(/saw no change/);
    expect(result.assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({ function: expect.stringMatching(/value$/), before: '3', after: '5', nearFailing: true }),
    );
  });
});

describe('a fix seen only where the tests enter the program, beside a call whose result varies from run to run', () => {
  // The changed helper is nested in the exported parser, so the probes compare the parser's calls
  // (the entry point); the request id differs between any two runs. The screen makes the entry
  // point's changed call outside the runner, and leaves the id's call out: what differs between two
  // runs of one version is no change (rival-screen.ts, noise-alike.ts `sameUnder`).
  it('sets one-edit patches aside unrun by the entry point’s call, and stays verified', async () => {
    const { result } = await scriptedRun(OPTIONS_PROJECT, 'node --test', writeFile('src/options.js', FIXED_OPTIONS), 'process');
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.atEntryPoints).toBe(true);
    expect(result.assessment?.level).toBe('verified');
    const search = result.assessment?.rivalSearch;
    expect(search?.screened).toBeGreaterThan(0);
    expect((search?.tried ?? 0) + (search?.screened ?? 0)).toBe(search?.candidates);
  });
});
