// A failing check's step read from its workflow file: the job GitHub named, the step GitHub named,
// that step's `run:` less the installs the run's setup does.
import { describe, expect, it } from 'vitest';
import { stepCommand } from '../../src/github/workflow-step.ts';

const WORKFLOW = `name: CI
on: [pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [20, 22]
    name: Tests (\${{ matrix.node }})
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: npm test
  lint:
    name: Lint
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: web
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: npm ci
      - name: ESLint
        run: |
          npm ci
          npm run lint
  types:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci
      - run: npx tsc --noEmit
`;

describe('stepCommand', () => {
  it("finds a named step of a named job, in the job's working directory, less its installs", () => {
    expect(stepCommand(WORKFLOW, 'Lint', 'ESLint')).toBe('cd "web" && npm run lint');
  });

  it('finds an unnamed step by the name GitHub gives it, and a job by its key or a matrix name', () => {
    expect(stepCommand(WORKFLOW, 'types', 'Run npx tsc --noEmit')).toBe('npx tsc --noEmit');
    expect(stepCommand(WORKFLOW, 'Tests (22)', 'Run npm test')).toBe('npm test');
  });

  it("takes a job's only step that is no install when GitHub named no step", () => {
    expect(stepCommand(WORKFLOW, 'types', null)).toBe('npx tsc --noEmit');
    expect(stepCommand(WORKFLOW, 'Lint', null)).toBeNull();
  });

  it('says nothing for a step with no run:, an unknown job, or a file that is no workflow', () => {
    expect(stepCommand(WORKFLOW, 'types', 'Run actions/checkout@v4')).toBeNull();
    expect(stepCommand(WORKFLOW, 'deploy', 'Run npm test')).toBeNull();
    expect(stepCommand('jobs: [', 'Lint', 'ESLint')).toBeNull();
  });
});
