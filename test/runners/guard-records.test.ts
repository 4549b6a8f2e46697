// The signed-record protocol both runtime guards use (src/runners/guard-records.ts), and what each
// guard makes of it: a taken key answered by a record signed with it and in the guard's shape is
// that record; anything else is missing evidence. pytest's guard keeps every taken key's record and
// calls a record complete only with its counts; the Node guard's own rules are in node-guard.test.ts.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueKeys, parsedRecord, readTakenKeys } from '../../src/runners/guard-records.ts';
import { takeKey } from '../support/key-pipe.ts';
import { pytestGuard } from '../../src/runners/pytest/pytest-guard.ts';
import { guardDirs, removeProjects } from '../support/guarded-run.ts';

afterAll(() => removeProjects());

/** A process takes the next key from the pipe, as the guards do: keys come in order, 0 first. */
function take(records: string, i: number): string {
  const { index, key } = takeKey(records);
  expect(index).toBe(i);
  return key;
}

function signed(key: string, record: object): string {
  const payload = JSON.stringify(record);
  return JSON.stringify({ payload, mac: createHmac('sha256', Buffer.from(key, 'hex')).update(payload).digest('hex') });
}

const RECORD = {
  runner: 'pytest',
  pid: 7,
  complete: true,
  tests: { passed: 2, failed: 0, skipped: 0 },
  events: [{ kind: 'exit', file: 'calc.py', line: 3, detail: 'ended its own process' }],
};

describe('the signed-record protocol', () => {
  it('answers each taken key, in order, with its record when signed with it, else with none', async () => {
    const { records } = guardDirs();
    issueKeys(records, 4);
    writeFileSync(join(records, 'record-0.json'), signed(take(records, 0), RECORD));
    take(records, 1);
    const other = take(records, 2);
    writeFileSync(join(records, 'record-3.json'), signed(other, RECORD)); // key 3 is not taken: not read
    writeFileSync(join(records, 'record-1.json'), signed(other, RECORD));
    expect(await readTakenKeys(records)).toEqual([
      { file: 'record-0.json', answer: { runs: false, record: RECORD } },
      { file: 'record-1.json', answer: null }, // signed with key 2's
      { file: 'record-2.json', answer: null }, // never written
    ]);
    // A folder's records are read once.
    expect(await readTakenKeys(records)).toEqual([]);
  });

  it("takes a record only in the guard's shape: an event out of shape makes it none; counts are whole numbers or none", () => {
    expect(parsedRecord(JSON.stringify({ ...RECORD, runs: true }))).toEqual({ runs: true, record: RECORD });
    for (const event of [
      { ...RECORD.events[0], kind: 'other' },
      { ...RECORD.events[0], line: '3' },
      { ...RECORD.events[0], file: 4 },
      { kind: 'exit', file: null, line: null },
    ])
      expect(parsedRecord(JSON.stringify({ ...RECORD, events: [event] }))).toBeNull();
    for (const without of ['runner', 'pid', 'complete', 'events'])
      expect(parsedRecord(JSON.stringify({ ...RECORD, [without]: undefined }))).toBeNull();
    for (const tests of [null, { passed: 1.5, failed: 0, skipped: 0 }, { passed: -1, failed: 0, skipped: 0 }, { passed: 1 }])
      expect(parsedRecord(JSON.stringify({ ...RECORD, tests }))?.record.tests).toBeNull();
    expect(parsedRecord('{"payload"')).toBeNull();
  });

  it("takes a test's body only as the guard words it: a body out of shape makes the record none", () => {
    const test = { file: 'test/t.js', titles: ['adds'], outcome: 'passed' };
    for (const body of [{ body: 'returned' }, { body: 'unseen' }, { body: 'raised', raised: 'AssertionError: 1 == 2' }, {}]) {
      const cases = [{ ...test, ...body }];
      expect(parsedRecord(JSON.stringify({ ...RECORD, cases }))?.record.cases).toEqual(cases);
    }
    for (const body of [{ body: 'passed' }, { body: true }, { body: 'raised', raised: 3 }, { body: 'returned', raised: 'x' }])
      expect(parsedRecord(JSON.stringify({ ...RECORD, cases: [{ ...test, ...body }] }))).toBeNull();
  });
});

describe("pytest's guard on the protocol", () => {
  it('keeps every taken key’s record, complete only with its counts, and names a missing one pytest’s', async () => {
    const dirs = guardDirs();
    await pytestGuard.ask(
      { command: 'pytest', env: {}, packageScripts: {}, root: '/repo', testFiles: ['t.py'], runnerVariables: ['^PYTEST_'] },
      dirs,
    );
    // No conftest.py listed (a run that is not judged): every one is the tests' side.
    expect(JSON.parse(readFileSync(join(dirs.records, 'context.json'), 'utf8'))).toEqual({
      root: '/repo',
      testFiles: ['t.py'],
      exempt: null,
      variables: ['^PYTEST_'],
      given: ['FIXLOOP_PYTEST_GUARD', 'PYTHONPATH', 'PYTEST_ADDOPTS', 'PYTHONUSERBASE'],
    });
    const quiet = { ...RECORD, events: [] };
    writeFileSync(join(dirs.records, 'record-0.json'), signed(take(dirs.records, 0), quiet));
    writeFileSync(join(dirs.records, 'record-1.json'), signed(take(dirs.records, 1), { ...quiet, tests: null }));
    take(dirs.records, 2);
    expect(await pytestGuard.read(dirs)).toEqual([
      quiet,
      { ...quiet, complete: false, tests: null },
      { runner: 'pytest', pid: 0, complete: false, tests: null, events: [] },
    ]);
  });
});
