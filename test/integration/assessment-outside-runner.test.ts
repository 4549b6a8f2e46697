// The look from outside the runner (docs/design.md §3.2.9, §3.3), end to end with the real `fixloop
// run`: a patch that fixes the bug only when it sees the test runner (node's test runner on the stack,
// pytest among the loaded modules) passes every look under the runner, and is refused, not green, with
// the call that gives another result in a plain process; one made only where the test file is fails
// the judge earlier (its copy runs with the original out of the way); the same fix made everywhere
// stays `verified`. A method's call is made on an object of its class given the fields the suite's object had,
// with the objects of its classes, Maps and Sets it holds, or made by the constructor call that made
// the suite's (a private field), or, in Python, on the suite's object pickled when its fields are not JSON.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { removeScriptedRuns, scriptedRun } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';
import { PATHS_PROJECT } from '../fixtures/overfit-paths.ts';
import {
  ARCHIVED_PATHS_PROJECT,
  BUILT_ON_PACK_PATHS_PROJECT,
  BUILT_PATHS_PROJECT,
  CHECKOUT_ONLY_PATHS,
  DEV_ONLY_PATHS,
  DEVELOPMENT_ONLY_PATHS,
  DUAL_PATHS_PROJECT,
  CI_ONLY_PATHS,
  DAILY_LEDGER_PROJECT,
  FIXED_DAILY_LEDGER,
  FIXED_GAUGE,
  FIXED_LEDGER,
  FIXED_LEDGER_ROUNDED,
  FIXED_MONEY,
  FIXED_PATHS,
  FIXED_RULER,
  FIXED_TALLY,
  FIXED_TILL,
  GAUGE_PROJECT,
  LEDGER_PROJECT,
  MONEY_PROJECT,
  PACKAGED_PATHS_PROJECT,
  PUBLISHED_MONEY_PROJECT,
  RULER_PROJECT,
  RUNNER_ONLY_DAILY_LEDGER,
  RUNNER_ONLY_GAUGE,
  RUNNER_ONLY_LEDGER,
  RUNNER_ONLY_LEDGER_ROUNDED,
  RUNNER_ONLY_MONEY,
  RUNNER_ONLY_PATHS,
  RUNNER_ONLY_RULER,
  RUNNER_ONLY_TALLY,
  RUNNER_ONLY_TILL,
  SUITE_STATE_PATHS,
  TALLY_PROJECT,
  TESTS_PRESENT_PATHS,
  TILL_PROJECT,
  UNPACKAGED_FIX_PATHS,
  UNSHIPPED_FIX_MONEY,
} from '../fixtures/runner-only.ts';
import { fullSuite } from '../support/suite-tier.ts';

afterAll(removeScriptedRuns);

type Run = { result: RunResult; code: number | null };

/**
 * The judge's refusal of a fix the tests see and a program without them would not
 * (src/loop/outside-verdict.ts), with `call` among the calls shown as fixed only under the runner.
 */
function expectRefused({ result, code }: Run, call: Record<string, string>): void {
  expect(result.status).toBe('failed_to_green');
  expect(result.stopReason).toBe('verification_failed');
  expect(result.verification?.findings.map((f) => f.kind)).toContain('runner_only');
  expect(result.headline).toContain('the judge refused the patch: the patch works only under the test runner');
  expect(result.assessment?.level).toBe('review');
  expect(result.assessment?.outsideLook?.runnerOnly).toContainEqual(expect.objectContaining(call));
  expect(code).toBe(1);
}

/** The same fix made everywhere: verified, its calls made outside the runner too, none fixed only under it. */
function expectVerifiedOutside({ result, code }: Run): void {
  expect(result.assessment?.level).toBe('verified');
  expect(result.assessment?.outsideLook).toMatchObject({ runnerOnly: [], count: 0 });
  expect(result.assessment?.outsideLook?.reproduced).toBeGreaterThan(0);
  const deployed = result.assessment?.outsideLook?.offWhereDeployed;
  if (deployed) expect(deployed).toMatchObject({ calls: [], count: 0 });
  expect(code).toBe(0);
}

describe('the look from outside the runner, node --test', () => {
  const run = (patched: string) => scriptedRun(PATHS_PROJECT, 'node --test', writeFile('src/paths.js', patched));

  it('refuses a fix made only under the runner, with the call that differs outside it', async () => {
    expectRefused(await run(RUNNER_ONLY_PATHS), {
      function: 'isAbsolute',
      input: "isAbsolute('C:\\\\x')",
      original: 'false',
      underRunner: 'true',
      outside: 'false',
    });
  });

  it('keeps at review, not refused, a fix that is off with NODE_ENV=production, with the call that shows it', async () => {
    // A fix to a development-only check is off there by design: a reviewer decides, the judge does not.
    const { result, code } = await run(DEVELOPMENT_ONLY_PATHS);
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('review');
    expect(result.assessment?.reason).toContain('the fix is off where the program is deployed: with NODE_ENV=production');
    expect(result.assessment?.outsideLook).toMatchObject({ count: 0, runnerOnly: [] });
    expect(result.assessment?.outsideLook?.offWhereDeployed?.calls).toContainEqual(
      expect.objectContaining({ function: 'isAbsolute', underRunner: 'true', outside: 'false', original: 'false' }),
    );
    expect(code).toBe(4);
  });

  // The full tier: CI keeps the refusal above, made by the same look (its 900 s, docs/benchmarks.md "CI time").
  it.runIf(fullSuite)(
    "refuses a fix made only where a CI variable is set: the plain process runs without fixloop's own CI",
    async () => {
      expectRefused(await run(CI_ONLY_PATHS), { function: 'isAbsolute', underRunner: 'true', outside: 'false' });
    },
  );

  it.runIf(fullSuite)(
    'refuses a fix made only where the test file is: its copy runs with the original out of the way',
    async () => {
      // The look from outside the runner would show it at review too (it runs without the test files,
      // test/assess/probe-checkout.test.ts), but the judge's copies of the fixed tests stop it first.
      const { result, code } = await run(TESTS_PRESENT_PATHS);
      expect(result.status).toBe('failed_to_green');
      expect(result.verification?.findings.map((f) => f.kind)).toContain('copy_observation_failed');
      expect(code).toBe(1);
    },
  );

  it.runIf(fullSuite)(
    'refuses a fix a test process learned and left in a cache: the plain process runs without what the runs wrote',
    async () => {
      expectRefused(await run(SUITE_STATE_PATHS), { function: 'isAbsolute', underRunner: 'true', outside: 'false' });
    },
  );

  it('keeps the same fix made everywhere verified, having made its call outside the runner too', async () => {
    const { result, code } = await run(FIXED_PATHS);
    expect(result.assessment?.level).toBe('verified');
    expect(result.assessment?.outsideLook).toMatchObject({ reproduced: 1, runnerOnly: [], count: 0 });
    expect(code).toBe(0);
  });
});

describe('the look from outside the runner, an npm package as npm packs it', () => {
  it('refuses a fix kept in a file the package does not ship, with the call that differs outside it', async () => {
    const script = Object.entries(UNPACKAGED_FIX_PATHS)
      .map(([path, text]) => writeFile(path, text))
      .join(' && ');
    expectRefused(await scriptedRun(PACKAGED_PATHS_PROJECT, 'node --test', script), {
      function: 'isAbsolute',
      underRunner: 'true',
      outside: 'false',
    });
  });

  it('refuses a fix made only where the package is not installed: the calls are made where npm puts it', async () => {
    expectRefused(await scriptedRun(PACKAGED_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', CHECKOUT_ONLY_PATHS)), {
      function: 'isAbsolute',
      underRunner: 'true',
      outside: 'false',
    });
  });

  // The full tier: CI keeps the same twin for node --test above ("keeps the same fix made everywhere verified").
  it.runIf(fullSuite)('keeps the same fix made in a file it ships verified', async () => {
    expectVerifiedOutside(await scriptedRun(PACKAGED_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', FIXED_PATHS)));
  });
});

describe('the look from outside the runner, a project as a git archive of it ships', () => {
  it('refuses a fix kept in a folder the archive leaves out (export-ignore), with the call that differs outside it', async () => {
    const script = Object.entries(UNPACKAGED_FIX_PATHS)
      .map(([path, text]) => writeFile(path, text))
      .join(' && ');
    expectRefused(await scriptedRun(ARCHIVED_PATHS_PROJECT, 'node --test', script), {
      function: 'isAbsolute',
      underRunner: 'true',
      outside: 'false',
    });
  });

  it.runIf(fullSuite)('keeps the same fix made in a file the archive holds verified', async () => {
    expectVerifiedOutside(await scriptedRun(ARCHIVED_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', FIXED_PATHS)));
  });
});

describe('a published package that ships a second copy of its sources: a build, another module format', () => {
  it('keeps at review a fix made in the sources alone, naming the build file users load', async () => {
    const { result, code } = await scriptedRun(BUILT_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', FIXED_PATHS));
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('review');
    expect(result.assessment?.outsideLook?.staleBuilds).toEqual([
      { function: 'isAbsolute', changed: 'src/paths.js', shipped: 'dist/paths.js' },
    ]);
    expect(result.assessment?.reason).toContain('the package ships `dist/paths.js`, a copy that defines `isAbsolute` as it was');
    expect(code).toBe(4);
  });

  it.runIf(fullSuite)('keeps at review a fix made in the sources alone, naming the ES module copy `import` gets', async () => {
    const { result } = await scriptedRun(DUAL_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', FIXED_PATHS));
    expect(result.assessment?.level).toBe('review');
    expect(result.assessment?.outsideLook?.staleBuilds).toEqual([
      { function: 'isAbsolute', changed: 'src/paths.js', shipped: 'esm/paths.mjs' },
    ]);
  });

  it.runIf(fullSuite)('keeps the fix made in the sources and the build verified', async () => {
    const script = [writeFile('src/paths.js', FIXED_PATHS), writeFile('dist/paths.js', FIXED_PATHS)].join(' && ');
    expectVerifiedOutside(await scriptedRun(BUILT_PATHS_PROJECT, 'node --test', script));
  });
});

describe('the look from outside the runner, a package as its build on packing makes it', () => {
  it("refuses a fix its build leaves out, with the call made on the build's copy", async () => {
    const { result, code } = await scriptedRun(
      BUILT_ON_PACK_PATHS_PROJECT,
      'node --test',
      writeFile('src/paths.js', DEV_ONLY_PATHS),
    );
    expectRefused({ result, code }, { function: 'isAbsolute', underRunner: 'true', outside: 'false', built: 'dist/paths.js' });
    expect(result.verification?.findings.find((f) => f.kind === 'runner_only')?.message).toContain(
      "in a plain process on `dist/paths.js`, the copy the package's build ships",
    );
  });

  it.runIf(fullSuite)('keeps the fix the build ships verified', async () => {
    expectVerifiedOutside(await scriptedRun(BUILT_ON_PACK_PATHS_PROJECT, 'node --test', writeFile('src/paths.js', FIXED_PATHS)));
  });
});

describe('the look from outside the runner, a Python project as its wheel ships it', () => {
  // Debian's Python, as the operator's: it builds the wheel with its own setuptools and `wheel`.
  const test = '/usr/bin/python3 -m pytest -q';

  it('refuses a fix kept in a module the wheel does not ship, with the call that differs outside it', async () => {
    const script = Object.entries(UNSHIPPED_FIX_MONEY)
      .map(([path, text]) => writeFile(path, text))
      .join(' && ');
    expectRefused(await scriptedRun(PUBLISHED_MONEY_PROJECT, test, script), {
      function: 'cents',
      input: "cents('3.5')",
      underRunner: '350',
      outside: '305',
    });
  });

  it.runIf(fullSuite)('keeps the same fix made in the package verified', async () => {
    expectVerifiedOutside(await scriptedRun(PUBLISHED_MONEY_PROJECT, test, writeFile('shop/money.py', FIXED_MONEY)));
  });
});

describe('the look from outside the runner, pytest', () => {
  const run = (patched: string) => scriptedRun(MONEY_PROJECT, 'python3 -m pytest -q', writeFile('shop/money.py', patched));

  // Full tier: the Python look's plain process is tested in test/assess/python/outside-call.test.ts, the
  // refusal end to end under node above.
  it.runIf(fullSuite)('refuses a fix made only under pytest, with the call that differs outside it', async () => {
    expectRefused(await run(RUNNER_ONLY_MONEY), {
      function: 'cents',
      input: "cents('3.5')",
      original: '305',
      underRunner: '350',
      outside: '305',
    });
  });

  it.runIf(fullSuite)('keeps the same fix made everywhere verified', async () => {
    expectVerifiedOutside(await run(FIXED_MONEY));
  });
});

describe('the look from outside the runner, on a method', () => {
  it('node --test: refuses a method fixed only under the runner, made on an object with the fields the suite gave it', async () => {
    expectRefused(await scriptedRun(RULER_PROJECT, 'node --test', writeFile('src/ruler.js', RUNNER_ONLY_RULER)), {
      function: 'Ruler.show',
      input: 'Ruler.show(25)',
      original: "'3 cm'",
      underRunner: "'2.5 cm'",
      outside: "'3 cm'",
    });
  });

  it.runIf(fullSuite)(
    'node --test: keeps the same method fixed everywhere verified, having made its call outside the runner',
    async () => {
      expectVerifiedOutside(await scriptedRun(RULER_PROJECT, 'node --test', writeFile('src/ruler.js', FIXED_RULER)));
    },
  );

  it.runIf(fullSuite)('pytest: refuses a method fixed only under pytest', async () => {
    expectRefused(await scriptedRun(TILL_PROJECT, 'python3 -m pytest -q', writeFile('shop/till.py', RUNNER_ONLY_TILL)), {
      function: 'Till.total',
      original: "'3.5'",
      underRunner: "'3.50'",
      outside: "'3.5'",
    });
  });

  it.runIf(fullSuite)('pytest: keeps the same method fixed everywhere verified', async () => {
    expectVerifiedOutside(await scriptedRun(TILL_PROJECT, 'python3 -m pytest -q', writeFile('shop/till.py', FIXED_TILL)));
  });

  it.runIf(fullSuite)('pytest: refuses a method fixed only under pytest, on a receiver given back by pickle', async () => {
    expectRefused(await scriptedRun(TALLY_PROJECT, 'python3 -m pytest -q', writeFile('shop/tally.py', RUNNER_ONLY_TALLY)), {
      function: 'Tally.due',
      original: '404',
      underRunner: '440',
      outside: '404',
    });
  });

  it.runIf(fullSuite)(
    'pytest: keeps the same method fixed everywhere verified, its call made on the receiver pickled',
    async () => {
      expectVerifiedOutside(await scriptedRun(TALLY_PROJECT, 'python3 -m pytest -q', writeFile('shop/tally.py', FIXED_TALLY)));
    },
  );

  it.runIf(fullSuite)(
    'node --test: refuses a method fixed only under the runner, its receiver holding a Rate and a Map',
    async () => {
      expectRefused(await scriptedRun(LEDGER_PROJECT, 'node --test', writeFile('src/ledger.js', RUNNER_ONLY_LEDGER)), {
        function: 'Ledger.due',
        original: '404',
        underRunner: '440',
        outside: '404',
      });
    },
  );

  it.runIf(fullSuite)(
    'node --test: refuses a method fixed only under the runner, called on an object of a subclass the module keeps to itself',
    async () => {
      expectRefused(
        await scriptedRun(DAILY_LEDGER_PROJECT, 'node --test', writeFile('src/ledger.js', RUNNER_ONLY_DAILY_LEDGER)),
        { function: 'Ledger.due', original: '404', underRunner: '440', outside: '404' },
      );
    },
  );

  it.runIf(fullSuite)("node --test: keeps the same method fixed everywhere verified on the subclass's objects", async () => {
    expectVerifiedOutside(await scriptedRun(DAILY_LEDGER_PROJECT, 'node --test', writeFile('src/ledger.js', FIXED_DAILY_LEDGER)));
  });

  it.runIf(fullSuite)('node --test: keeps the same method fixed everywhere verified, its receiver given back whole', async () => {
    expectVerifiedOutside(await scriptedRun(LEDGER_PROJECT, 'node --test', writeFile('src/ledger.js', FIXED_LEDGER)));
  });

  it.runIf(fullSuite)(
    'node --test: refuses a method fixed only under the runner whose patch gave its object a rounding function',
    async () => {
      const patch = writeFile('src/ledger.js', RUNNER_ONLY_LEDGER_ROUNDED);
      expectRefused(await scriptedRun(LEDGER_PROJECT, 'node --test', patch), {
        function: 'Ledger.due',
        original: '404',
        underRunner: '440',
        outside: '404',
      });
    },
  );

  it.runIf(fullSuite)('node --test: keeps the same fix verified with the rounding function given back by its name', async () => {
    const patch = writeFile('src/ledger.js', FIXED_LEDGER_ROUNDED);
    expectVerifiedOutside(await scriptedRun(LEDGER_PROJECT, 'node --test', patch));
  });

  it.runIf(fullSuite)(
    'node --test: refuses a method fixed only under the runner, its object made again by its constructor call',
    async () => {
      expectRefused(await scriptedRun(GAUGE_PROJECT, 'node --test', writeFile('src/gauge.js', RUNNER_ONLY_GAUGE)), {
        function: 'Gauge.show',
        original: "'3 cm'",
        underRunner: "'2.5 cm'",
        outside: "'3 cm'",
      });
    },
  );

  it.runIf(fullSuite)(
    'node --test: keeps the same method fixed everywhere verified, its object with a private field made again',
    async () => {
      expectVerifiedOutside(await scriptedRun(GAUGE_PROJECT, 'node --test', writeFile('src/gauge.js', FIXED_GAUGE)));
    },
  );
});
