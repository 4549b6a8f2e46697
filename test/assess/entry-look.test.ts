// When the assessment looks again with the functions the failing tests call probed too.
import { describe, expect, it } from 'vitest';
import { entryLookWhy, OUTER_WHEN_LEFT, secondLookStands } from '../../src/assess/entry-look.ts';

const near = { nearFailing: true };
const outside = { nearFailing: false };
const time = { leftMs: 60_000, suiteMs: 2_000 };

describe('a second look at the functions the failing tests call', () => {
  it('is taken when nothing changed was reached, or it showed no change', () => {
    expect(entryLookWhy(null, time)).toBe('unreached');
    expect(entryLookWhy({ changes: [] }, time)).toBe('unchanged');
  });

  it('is taken to show changes outside the failing tests at the public function, when the time left allows it', () => {
    expect(entryLookWhy({ changes: [near, outside] }, time)).toBe('outer');
    expect(entryLookWhy({ changes: [near, outside] }, { leftMs: OUTER_WHEN_LEFT * 2_000 - 1, suiteMs: 2_000 })).toBeNull();
    // Changes near the failing tests only: the fix at work, nothing to show a reviewer elsewhere.
    expect(entryLookWhy({ changes: [near] }, time)).toBeNull();
  });

  it('stands only when it ran to the end and, for the outer calls, still shows a change outside the failing tests', () => {
    expect(secondLookStands('outer', true, { changes: [near, outside] }, true)).toBe(true);
    expect(secondLookStands('outer', true, { changes: [near] }, true)).toBe(false);
    expect(secondLookStands('outer', false, { changes: [outside] }, true)).toBe(false);
    expect(secondLookStands('unchanged', true, { changes: [] }, true)).toBe(true);
    expect(secondLookStands('unchanged', true, null, true)).toBe(false);
    expect(secondLookStands('unreached', true, null, false)).toBe(true);
  });
});

describe('a second look where no input could be generated around the changed functions', () => {
  it('is taken when the changes are near the failing tests only and nothing was generated, when the time allows', () => {
    expect(entryLookWhy({ changes: [near], generatedCompared: 0 }, time)).toBe('ungenerated');
    expect(entryLookWhy({ changes: [near], generatedCompared: 12 }, time)).toBeNull();
    // Only a held object's fields varied (probe-fields.cjs): the public function may take plain data.
    expect(entryLookWhy({ changes: [near], generatedCompared: 12, argumentsVaried: 0 }, time)).toBe('ungenerated');
    expect(entryLookWhy({ changes: [near], generatedCompared: 12, argumentsVaried: 3 }, time)).toBeNull();
    expect(
      entryLookWhy({ changes: [near], generatedCompared: 0 }, { leftMs: OUTER_WHEN_LEFT * 2_000 - 1, suiteMs: 2_000 }),
    ).toBeNull();
  });

  it('stands only when it generated inputs at the public functions', () => {
    expect(secondLookStands('ungenerated', true, { changes: [near], generatedCompared: 40 }, true)).toBe(true);
    expect(secondLookStands('ungenerated', true, { changes: [near], generatedCompared: 0 }, true)).toBe(false);
    expect(secondLookStands('ungenerated', false, { changes: [near], generatedCompared: 40 }, true)).toBe(false);
    expect(secondLookStands('ungenerated', true, { changes: [near], generatedCompared: 40, argumentsVaried: 0 }, true)).toBe(
      false,
    );
  });
});
