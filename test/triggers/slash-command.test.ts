import { describe, expect, it } from 'vitest';
import { parseSlashCommand } from '../../src/triggers/slash-command.ts';

describe('parseSlashCommand', () => {
  it.each([
    ['/fix', { kind: 'fix', instructions: '' }],
    ['  /fix  ', { kind: 'fix', instructions: '' }],
    ['/fix retry', { kind: 'retry' }],
    ['/fix Cancel', { kind: 'cancel' }],
    ['/fix status', { kind: 'status' }],
    ['/fix help', { kind: 'help' }],
    ['/fix stauts', { kind: 'help', unknown: 'stauts' }],
    ['/fix the total must include tax', { kind: 'fix', instructions: 'the total must include tax' }],
    ['\n/fix round half up\nsee the second test\r\n', { kind: 'fix', instructions: 'round half up\nsee the second test' }],
  ])('reads %j', (body, expected) => {
    expect(parseSlashCommand(body, '/fix')).toEqual(expected);
  });

  it.each(['Thanks, I will /fix it', '> /fix\nquoted', '/fixit', '/fixes', '', 'please /fix'])('ignores %j', (body) => {
    expect(parseSlashCommand(body, '/fix')).toBeNull();
  });

  it('follows the configured command', () => {
    expect(parseSlashCommand('/repair retry', '/repair')).toEqual({ kind: 'retry' });
    expect(parseSlashCommand('/fix retry', '/repair')).toBeNull();
  });
});
