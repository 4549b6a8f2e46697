// fixloop as a library: a fix loop on a repository whose tests fail, from a program of your own.
// Usage (Node 20 or newer): node fix.mjs <repository> "<fix command>"
import { run } from 'fixloop';

const [repository, fixCommand] = process.argv.slice(2);
if (!repository || !fixCommand) {
  console.error('usage: node fix.mjs <repository> "<fix command>"');
  process.exit(2);
}

const outcome = await run(repository, {
  taskId: 'fix-add',
  testCommand: 'node --test',
  attemptLimit: 3,
  // The default engine is `repair` (no key, no network); here a command of yours proposes each fix.
  engines: ['script'],
  scriptCommand: fixCommand,
  artifactsDir: 'fixloop-artifacts',
  onProgress: (progress) => {
    if (progress.phase !== 'engine') console.error(`fixloop: ${progress.message}`);
  },
});

switch (outcome.status) {
  case 'tests_green':
    console.log(outcome.patch);
    break;
  case 'failed_to_green':
  case 'escalated':
    console.error(outcome.lastOutput);
    process.exitCode = 1;
    break;
  default:
    console.error(outcome.result.headline);
    process.exitCode = 1;
}
