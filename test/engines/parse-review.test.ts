// The reviewer's strict protocol: two lines, `STATUS: ok|missing` then `{"remainingTasks": [...]}`.
// Anything else is an invalid review with a reason, never a guess.
import { describe, expect, it } from 'vitest';
import { parseReview } from '../../src/engines/parse-review.ts';

const LINE_2_SHAPE = 'line 2 must be {"remainingTasks": [<non-empty strings>]} and nothing else';
const invalid = (reason: string) => ({ status: 'invalid', remainingTasks: [], reason });

describe('parseReview', () => {
  it('accepts `STATUS: ok` with no remaining task', () => {
    expect(parseReview('STATUS: ok\n{"remainingTasks": []}')).toStrictEqual({ status: 'ok', remainingTasks: [] });
  });

  it('accepts `STATUS: missing` with its tasks, in order, trimmed', () => {
    expect(
      parseReview('STATUS: missing\n{"remainingTasks": ["treat a missing quantity as 1", "  round to cents "]}'),
    ).toStrictEqual({
      status: 'missing',
      remainingTasks: ['treat a missing quantity as 1', 'round to cents'],
    });
  });

  it('accepts trailing newlines and CRLF line ends', () => {
    expect(parseReview('STATUS: ok\n{"remainingTasks": []}\n')).toStrictEqual({ status: 'ok', remainingTasks: [] });
    expect(parseReview('STATUS: ok\n{"remainingTasks": []}\n\n\n')).toStrictEqual({ status: 'ok', remainingTasks: [] });
    expect(parseReview('STATUS: missing\r\n{"remainingTasks": ["add a test"]}\r\n')).toStrictEqual({
      status: 'missing',
      remainingTasks: ['add a test'],
    });
  });

  it('refuses extra lines, a blank line between, and an empty or one-line answer, counting the lines', () => {
    expect(parseReview('STATUS: ok\n{"remainingTasks": []}\nThanks!')).toStrictEqual(invalid('expected exactly 2 lines, got 3'));
    expect(parseReview('STATUS: ok\n\n{"remainingTasks": []}')).toStrictEqual(invalid('expected exactly 2 lines, got 3'));
    expect(parseReview('STATUS: ok')).toStrictEqual(invalid('expected exactly 2 lines, got 1'));
    expect(parseReview('')).toStrictEqual(invalid('expected exactly 2 lines, got 1'));
  });

  it('refuses leading prose, on its own line or before the status', () => {
    expect(parseReview('Here is my review:\nSTATUS: ok\n{"remainingTasks": []}')).toStrictEqual(
      invalid('expected exactly 2 lines, got 3'),
    );
    expect(parseReview('\nSTATUS: ok\n{"remainingTasks": []}')).toStrictEqual(invalid('expected exactly 2 lines, got 3'));
    expect(parseReview('Review: STATUS: ok\n{"remainingTasks": []}')).toStrictEqual(
      invalid('line 1 must be `STATUS: ok` or `STATUS: missing`, got `Review: STATUS: ok`'),
    );
  });

  it('refuses a lower-case status, another word, and extra spaces', () => {
    const line1 = (got: string) => invalid(`line 1 must be \`STATUS: ok\` or \`STATUS: missing\`, got \`${got}\``);
    expect(parseReview('status: ok\n{"remainingTasks": []}')).toStrictEqual(line1('status: ok'));
    expect(parseReview('STATUS: OK\n{"remainingTasks": []}')).toStrictEqual(line1('STATUS: OK'));
    expect(parseReview('STATUS: done\n{"remainingTasks": []}')).toStrictEqual(line1('STATUS: done'));
    expect(parseReview('STATUS:  ok\n{"remainingTasks": []}')).toStrictEqual(line1('STATUS:  ok'));
    expect(parseReview('STATUS: ok \n{"remainingTasks": []}')).toStrictEqual(line1('STATUS: ok '));
    expect(parseReview(' STATUS: ok\n{"remainingTasks": []}')).toStrictEqual(line1(' STATUS: ok'));
    expect(parseReview('STATUS:ok\n{"remainingTasks": []}')).toStrictEqual(line1('STATUS:ok'));
  });

  it('quotes at most 80 characters of a bad first line', () => {
    const long = `STATUS: ${'x'.repeat(200)}`;
    expect(parseReview(`${long}\n{"remainingTasks": []}`)).toStrictEqual(
      invalid(`line 1 must be \`STATUS: ok\` or \`STATUS: missing\`, got \`${long.slice(0, 80)}\``),
    );
  });

  it('refuses an answer inside code fences', () => {
    expect(parseReview('```\nSTATUS: ok\n{"remainingTasks": []}\n```')).toStrictEqual(invalid('expected exactly 2 lines, got 4'));
    expect(parseReview('```text\nSTATUS: ok\n{"remainingTasks": []}\n```\n')).toStrictEqual(
      invalid('expected exactly 2 lines, got 4'),
    );
  });

  it('refuses a second line that is not JSON', () => {
    expect(parseReview('STATUS: ok\nremainingTasks: []')).toStrictEqual(invalid('line 2 is not JSON'));
    expect(parseReview("STATUS: ok\n{'remainingTasks': []}")).toStrictEqual(invalid('line 2 is not JSON'));
    expect(parseReview('STATUS: ok\n```json {"remainingTasks": []}```')).toStrictEqual(invalid('line 2 is not JSON'));
  });

  it('refuses JSON that is not the object: an array, null, a string, no key, a wrong key', () => {
    for (const line2 of [
      '[]',
      'null',
      '"ok"',
      '42',
      '{}',
      '{"tasks": []}',
      '{"remainingTasks": "none"}',
      '{"remainingTasks": null}',
    ]) {
      expect(parseReview(`STATUS: ok\n${line2}`), line2).toStrictEqual(invalid(LINE_2_SHAPE));
    }
  });

  it('refuses extra keys beside remainingTasks', () => {
    expect(parseReview('STATUS: ok\n{"remainingTasks": [], "confidence": 0.9}')).toStrictEqual(invalid(LINE_2_SHAPE));
  });

  it('refuses non-string and empty tasks', () => {
    for (const tasks of ['[1]', '[null]', '[["nested"]]', '[{"task": "x"}]', '[""]', '["   "]', '["real task", ""]']) {
      expect(parseReview(`STATUS: missing\n{"remainingTasks": ${tasks}}`), tasks).toStrictEqual(invalid(LINE_2_SHAPE));
    }
  });

  it('refuses `STATUS: ok` with tasks and `STATUS: missing` without any', () => {
    expect(parseReview('STATUS: ok\n{"remainingTasks": ["add a test"]}')).toStrictEqual(
      invalid('`STATUS: ok` with remaining tasks'),
    );
    expect(parseReview('STATUS: missing\n{"remainingTasks": []}')).toStrictEqual(
      invalid('`STATUS: missing` without any remaining task'),
    );
  });
});
