// Annotations as the runner reads them: one line each, whatever the message holds.
import { describe, expect, it } from 'vitest';
import { annotation } from '../../src/cli/action/workflow-commands.ts';

describe('annotation', () => {
  it('keeps a multi-line message in one annotation, so no line of it can be a workflow command of its own', () => {
    const line = annotation('error', 'fixloop', 'setup failed:\nnpm ERR! 100% broken\r\n::add-mask::x\n');
    expect(line).toBe('::error title=fixloop::setup failed:%0Anpm ERR! 100%25 broken%0D%0A::add-mask::x\n');
    expect(line.trimEnd().split('\n')).toHaveLength(1);
  });

  it('escapes what would end a property in the title', () => {
    expect(annotation('warning', 'fixloop: sandbox, process', 'ok')).toBe('::warning title=fixloop%3A sandbox%2C process::ok\n');
  });
});
