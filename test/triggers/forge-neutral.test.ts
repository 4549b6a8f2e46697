// The triggers and the forge-neutral publication are written against neutral events and the forge
// port: no GitHub payload field, no GitHub webhook event name, no installation id in their code. A
// second forge's adapter plugs in beside src/github/ only if this holds.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** GitHub's webhook names and the payload fields the adapter reads (src/github/webhook-payloads.ts). */
const GITHUB_WORDS = [
  'clone_url',
  'default_branch',
  'pull_request',
  'pull_requests',
  'head_sha',
  'check_suite',
  'workflow_run',
  'role_name',
  'issues.labeled',
  'issue_comment',
  'pull_request_review',
  'installationId',
  'installation',
  'sender',
  'payload',
  'check run',
  'checkRun',
];

async function codeOf(folder: string): Promise<{ file: string; code: string }[]> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.ts'));
  // Comments may name GitHub (to say where its adapter is); the code may not.
  return Promise.all(
    files.map(async (name) => ({
      file: join(folder, name),
      code: (await readFile(join(folder, name), 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''),
    })),
  );
}

describe('forge-neutral code', () => {
  it.each(['src/triggers', 'src/forge'])('%s names nothing of GitHub’s webhooks', async (folder) => {
    const found = (await codeOf(folder)).flatMap(({ file, code }) =>
      GITHUB_WORDS.filter((word) => code.includes(word)).map((word) => `${file}: ${word}`),
    );
    expect(found).toEqual([]);
  });
});
