// Checks every bug of the corpus: the visible tests fail on the buggy project, the intended fix makes
// the visible and the hidden tests pass, and the buggy project fails with the hidden tests too.
// Run: npm run bench:check [-- --filter <substring>]
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyFixes, loadCorpus } from './lib/corpus.ts';
import { materialize, shell } from './lib/workdir.ts';

const corpusDir = fileURLToPath(new URL('./corpus', import.meta.url));
const filterAt = process.argv.indexOf('--filter');
const filter = filterAt > 0 ? (process.argv[filterAt + 1] ?? '') : '';
const bugs = loadCorpus(corpusDir).filter((b) => b.id.includes(filter));
let problems = 0;
for (const bug of bugs) {
  const errors: string[] = [];
  const buggy = materialize(bug.project, 'check');
  const fixed = materialize({ ...applyFixes(bug), ...bug.hidden }, 'check');
  const buggyHidden = materialize({ ...bug.project, ...bug.hidden }, 'check');
  try {
    if ((await shell(bug.test, buggy)).code === 0) errors.push('the visible tests pass on the buggy project');
    const run = await shell(bug.test, fixed);
    if (run.code !== 0)
      errors.push(`the fix does not pass visible + hidden tests:\n${run.stdout.slice(-1500)}${run.stderr.slice(-800)}`);
    if ((await shell(bug.test, buggyHidden)).code === 0) errors.push('the hidden tests pass on the buggy project');
  } finally {
    for (const d of [buggy, fixed, buggyHidden]) rmSync(d, { recursive: true, force: true });
  }
  if (errors.length) problems++;
  console.log(`${errors.length ? 'FAIL' : 'ok  '} ${bug.id}${errors.length ? `\n  ${errors.join('\n  ')}` : ''}`);
}
console.log(`\n${bugs.length - problems} passed, ${problems} failed`);
process.exitCode = problems ? 1 : 0;
