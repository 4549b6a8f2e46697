// Artifacts that go nowhere, for unit tests of the loop that do not look at files.
import type { Artifacts } from '../../src/loop/artifacts.ts';

export const noArtifacts: Artifacts = {
  dir: '/nowhere',
  attemptDiffPath: (n) => `/nowhere/attempt-${n}.diff`,
  attemptLogPath: (n) => `/nowhere/attempt-${n}.log`,
  writeAttempt: async () => undefined,
  writeLog: async (name) => `/nowhere/${name}`,
  writeReport: async () => ({ reportPath: '', resultPath: '' }),
};
