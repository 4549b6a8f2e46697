// `fixloop runs show` of a stored command-line run with an assessment: the level and why on a line of
// its own, then the report as the run rendered it; `fixloop runs` lists the level beside the status.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runsList, runsShow } from '../../src/cli/runs-command.ts';
import { renderReport } from '../../src/report/render-report.ts';
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { jobData } from '../support/job-data.ts';
import { assessedResult, notAssessedAssessment, reviewAssessment } from '../support/sample-assessment.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-runs-show-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function store(result: ReturnType<typeof assessedResult>): Promise<void> {
  const runDir = join(dir, 'runs', result.runId);
  await mkdir(runDir, { recursive: true });
  const report = renderReport(result);
  await writeFile(join(runDir, 'result.json'), report.json);
  await writeFile(join(runDir, 'report.md'), report.markdown);
}

describe('fixloop runs show, a stored run with an assessment', () => {
  it('says the level and why, and shows the report with the changes to review', async () => {
    await store(assessedResult(reviewAssessment()));
    const out: string[] = [];
    await runsShow({ stdout: (t) => out.push(t), dataDir: dir, userDataDir: dir }, 'mabc123-0a1b2c');
    const text = out.join('');
    expect(text).toMatch(/^Run mabc123-0a1b2c \(command line\): tests_green \(review\), on \/home\/me\/project/);
    expect(text).toContain('\nAssessment: review, 2 behaviour changes outside the failing tests\n');
    expect(text).toContain('## fixloop: 🔍 Tests pass: review before merging');
    expect(text).toContain("| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('ab\\\\c')` | `false` | `true` |");

    const list: string[] = [];
    await runsList({ stdout: (t) => list.push(t), dataDir: dir, userDataDir: dir }, 10);
    expect(list.join('')).toMatch(/mabc123-0a1b2c\s+tests_green \(review\)\s+\/home\/me\/project/);
  });

  it('names why the assessment could not look, and says when none ran', async () => {
    await store(assessedResult(notAssessedAssessment()));
    const out: string[] = [];
    await runsShow({ stdout: (t) => out.push(t), dataDir: dir, userDataDir: dir }, 'mabc123-0a1b2c');
    expect(out.join('')).toContain('Assessment: review, the assessment could not look: no changed function it can probe');

    await store(assessedResult(undefined));
    const none: string[] = [];
    await runsShow({ stdout: (t) => none.push(t), dataDir: dir, userDataDir: dir }, 'mabc123-0a1b2c');
    expect(none.join('')).toMatch(/^Run mabc123-0a1b2c \(command line\): tests_green, on/);
    expect(none.join('')).toContain('Assessment: none ran');
  });

  it("says the level of an App's run, read from the result beside its report", async () => {
    const storeOf = await openSqliteStore(dir);
    await storeOf.enqueue(newRunJob(jobData('mabc123-0a1b2c', 'acme/shop#7')), 'alice', 'd-1');
    await storeOf.markReady('mabc123-0a1b2c', { statusCommentId: 5 });
    await storeOf.claim('w1', 10_000);
    await store(assessedResult(reviewAssessment()));
    await storeOf.finish(
      'mabc123-0a1b2c',
      'w1',
      'done',
      'Tests pass after 1 attempt. Pull request #8.',
      join(dir, 'runs', 'mabc123-0a1b2c'),
    );
    await storeOf.close();
    const out: string[] = [];
    await runsShow({ stdout: (t) => out.push(t), dataDir: dir, userDataDir: dir }, 'mabc123-0a1b2c');
    expect(out.join('')).toMatch(
      /Outcome: Tests pass after 1 attempt\. Pull request #8\.\nAssessment: review, 2 behaviour changes outside the failing tests\n/,
    );
    expect(out.join('')).toContain('## fixloop: 🔍 Tests pass: review before merging');
  });
});
