// The operator's npm and pip are asked about their configuration once for many fixloop processes,
// and again as soon as anything the answer came from changed: the program, the environment, a
// configuration file (changed, created), or an hour. Nothing is kept in a folder that is not private.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { askOnce, type ToolQuestion } from '../../src/sandbox/tool-answers.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-tool-answers-'));
  dirs.push(dir);
});

/** askOnce with a counting tool whose answer is `answer`, reading `reads`. */
function asker(reads: string[], answer: string | null = 'the answer') {
  let asked = 0;
  const program = join(dir, 'tool');
  writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
  const question = (env: NodeJS.ProcessEnv = { HOME: '/home/someone' }): ToolQuestion => ({
    name: 'tool config',
    file: program,
    args: [],
    env,
  });
  return {
    program,
    get asked() {
      return asked;
    },
    ask: (env?: NodeJS.ProcessEnv) =>
      askOnce(
        join(dir, 'cache'),
        question(env),
        () => reads,
        () => {
          asked++;
          return answer;
        },
      ),
  };
}

/** Makes `file` look written a minute ago: an answer is not kept from a file changed while the tool ran. */
function settled(file: string, text: string): void {
  writeFileSync(file, text);
  const past = new Date(Date.now() - 60_000);
  execFileSync('touch', ['-d', past.toISOString(), file]);
}

describe('a tool’s answer kept between processes', () => {
  it('is asked once while nothing it came from changed, and again when a file it read changes or appears', () => {
    const rc = join(dir, 'rc');
    const absent = join(dir, 'not-yet');
    settled(rc, 'registry=a\n');
    const tool = asker([rc, absent]);
    expect(tool.ask()).toBe('the answer');
    expect(tool.ask()).toBe('the answer');
    expect(tool.asked).toBe(1);
    settled(rc, 'registry=bb\n');
    tool.ask();
    expect(tool.asked).toBe(2);
    settled(absent, 'proxy=c\n');
    tool.ask();
    expect(tool.asked).toBe(3);
    tool.ask();
    expect(tool.asked).toBe(3);
  });

  it('is asked again for another environment, a changed program, or an answer an hour old; not for another working folder', () => {
    const tool = asker([]);
    tool.ask({ HOME: '/home/someone', PWD: '/one' });
    tool.ask({ HOME: '/home/someone', PWD: '/two', OLDPWD: '/one' });
    expect(tool.asked).toBe(1);
    tool.ask({ HOME: '/home/someone', npm_config_registry: 'https://other.example/' });
    expect(tool.asked).toBe(2);
    writeFileSync(tool.program, '#!/bin/sh\n# upgraded\n');
    tool.ask();
    expect(tool.asked).toBe(3);
    const kept = readdirSync(join(dir, 'cache', 'tool-answers')).map((f) => join(dir, 'cache', 'tool-answers', f));
    expect(kept).toHaveLength(3);
    for (const file of kept) {
      const record = JSON.parse(readFileSync(file, 'utf8')) as { at: number };
      writeFileSync(file, JSON.stringify({ ...record, at: record.at - 61 * 60_000 }));
    }
    tool.ask();
    expect(tool.asked).toBe(4);
  });

  it('removes answers past their hour when it writes a new one, so other environments leave no files for good', () => {
    const tool = asker([]);
    tool.ask({ HOME: '/home/someone', TERM_SESSION: 'one' });
    const folder = join(dir, 'cache', 'tool-answers');
    const [old = ''] = readdirSync(folder);
    const past = new Date(Date.now() - 61 * 60_000);
    execFileSync('touch', ['-d', past.toISOString(), join(folder, old)]);
    tool.ask({ HOME: '/home/someone', TERM_SESSION: 'two' });
    expect(tool.asked).toBe(2);
    expect(readdirSync(folder)).toHaveLength(1);
    expect(readdirSync(folder)).not.toContain(old);
  });

  it('keeps no failed answer, no answer whose file changed while it was asked, and nothing in a folder others can read', () => {
    const failing = asker([], null);
    failing.ask();
    failing.ask();
    expect(failing.asked).toBe(2);

    const fresh = join(dir, 'fresh');
    writeFileSync(fresh, 'written just now\n');
    const racing = asker([fresh]);
    racing.ask();
    racing.ask();
    expect(racing.asked).toBe(2);

    const open = asker([]);
    mkdirSync(join(dir, 'cache', 'tool-answers'), { recursive: true });
    chmodSync(join(dir, 'cache', 'tool-answers'), 0o755);
    open.ask();
    open.ask();
    expect(open.asked).toBe(2);
  });
});

describe('the operator’s npm and pip, from separate fixloop processes', () => {
  // As each `fixloop run` names its cache folder (a library's caller keeps nothing: library-example).
  it('run once for two processes, and again after the user’s pip.conf appears', async () => {
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    mkdirSync(home);
    mkdirSync(bin);
    const log = join(dir, 'runs.log');
    // An npm and a pip that log each run and answer as the real ones do.
    writeFileSync(
      join(bin, 'npm'),
      `#!/bin/sh\necho "npm $*" >> ${log}\necho '{"registry":"https://registry.example.com/","userconfig":"${home}/.npmrc","globalconfig":"${dir}/etc/npmrc"}'\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(bin, 'pip3'),
      `#!/bin/sh\necho "pip $*" >> ${log}\necho "global.index-url='https://pypi.example.com/simple'"\n`,
      { mode: 0o755 },
    );
    const script = `import { keepToolAnswersIn, packageSettingsFor } from ${JSON.stringify(resolve('src/sandbox/package-settings.ts'))};\nimport { bindGuardFrom } from ${JSON.stringify(resolve('src/sandbox/bind-guard.ts'))};\nkeepToolAnswersIn(process.env.XDG_CACHE_HOME + '/fixloop');\nconst s = packageSettingsFor(process.env, bindGuardFrom(process.env));\nconsole.log(JSON.stringify([s.npmKeys, s.pipKeys]));\n`;
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home, XDG_CACHE_HOME: join(dir, 'cache'), TMPDIR: dir };
    const fixloopProcess = () =>
      JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' })) as unknown;
    const runs = () => readFileSync(log, 'utf8').trim().split('\n');

    expect(fixloopProcess()).toEqual([['registry'], ['index-url']]);
    expect(fixloopProcess()).toEqual([['registry'], ['index-url']]);
    expect(runs()).toEqual(['npm config list --json', 'pip config list']);

    mkdirSync(join(home, '.config', 'pip'), { recursive: true });
    settled(join(home, '.config', 'pip', 'pip.conf'), '[global]\nindex-url = https://pypi.example.com/simple\n');
    fixloopProcess();
    expect(runs()).toEqual(['npm config list --json', 'pip config list', 'pip config list']);
  });
});
