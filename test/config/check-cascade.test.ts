// Checks as the gate (`checks:`, `--check`): with no engine named, the repository's own fixers come
// first in the cascade; a cascade someone named is kept.
import { describe, expect, it } from 'vitest';
import { applyOverrides } from '../../src/config/apply-overrides.ts';
import { withChecks } from '../../src/config/check-cascade.ts';
import { parseRepoConfig } from '../../src/config/parse-config.ts';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';

describe('the cascade of a check run', () => {
  it('puts the fixers first when the file sets checks and names no engine', () => {
    const config = parseRepoConfig('test:\n  command: npm test\nchecks:\n  - npm run lint\n', 'fixloop.yml');
    expect(config.checks).toEqual(['npm run lint']);
    expect(config.engines).toEqual(['fixers', 'repair']);
  });

  it('keeps the engines the file names, and the default cascade without checks', () => {
    expect(parseRepoConfig('checks: [npm run lint]\nengines: [repair]\n', 'fixloop.yml').engines).toEqual(['repair']);
    expect(parseRepoConfig('engines: [repair, agent]\n', 'fixloop.yml').engines).toEqual(['repair', 'agent']);
    expect(parseRepoConfig('', 'fixloop.yml')).toMatchObject({ checks: [], engines: ['repair'] });
  });

  it("puts the fixers first for --check, unless --engine names the cascade; --check replaces the file's checks", () => {
    const file = parseRepoConfig('checks: [npm run lint]\nengines: [repair]\n', 'fixloop.yml');
    expect(applyOverrides(defaultRepoConfig(), { checks: ['npx eslint src'] })).toMatchObject({
      checks: ['npx eslint src'],
      engines: ['fixers', 'repair'],
    });
    expect(applyOverrides(defaultRepoConfig(), { checks: ['npx eslint src'], engines: ['repair'] }).engines).toEqual(['repair']);
    // Without --check, the file's own choice stands.
    expect(applyOverrides(file, {}).engines).toEqual(['repair']);
    expect(applyOverrides(file, { checks: ['npx tsc --noEmit'] }).checks).toEqual(['npx tsc --noEmit']);
  });

  it('gives a check the App found in a workflow the same cascade', () => {
    expect(withChecks(defaultRepoConfig(), ['npm run lint'])).toMatchObject({
      checks: ['npm run lint'],
      engines: ['fixers', 'repair'],
    });
    expect(withChecks({ ...defaultRepoConfig(), engines: ['agent'] }, ['npm run lint']).engines).toEqual(['agent']);
  });

  it('refuses an empty check command', () => {
    expect(() => parseRepoConfig('checks: [""]\n', 'fixloop.yml')).toThrow(/checks\[0\]/);
  });
});
