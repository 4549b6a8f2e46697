// The bwrap backend's rules, one by one: what its command line says, and what a command inside sees.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapArgs, sandboxPath } from '../../src/sandbox/bwrap-args.ts';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';
import { dockerRunArgs } from '../../src/sandbox/docker-sandbox.ts';
import { DEFAULT_LIMITS, limitsFromEnvironment } from '../../src/sandbox/limits.ts';
import { parseSandboxChoice } from '../../src/sandbox/select-sandbox.ts';
import { userPath } from '../../src/sandbox/user-path.ts';

describe('the bwrap command line', () => {
  const plan = {
    command: ['/bin/sh', '-c', 'true'],
    cwd: '/tmp/fixloop-x/work',
    env: { PATH: '/usr/bin', SECRET: 'no' },
    toolDirs: ['/opt/node/bin'],
    mounts: [{ path: '/tmp/out', writable: true }, { path: '/opt/plugin' }],
    network: false,
    tmpBytes: 1024,
  };

  it('unshares every namespace, clears the environment and shows the system read-only', () => {
    const args = bwrapArgs(plan);
    expect(args.slice(0, 1)).toEqual(['--unshare-all']);
    expect(args).not.toContain('--share-net');
    expect(args).toContain('--die-with-parent');
    expect(args.join(' ')).toContain('--ro-bind /usr /usr');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /etc/shadow');
    expect(args.join(' ')).toContain('--bind /tmp/fixloop-x/work /tmp/fixloop-x/work');
    expect(args.join(' ')).toContain('--bind /tmp/out /tmp/out');
    expect(args.join(' ')).toContain('--ro-bind /opt/plugin /opt/plugin');
    expect(args.join(' ')).toContain('--ro-bind /opt/node/bin /opt/node/bin');
    expect(args.indexOf('--clearenv')).toBeLessThan(args.indexOf('--setenv'));
    expect(args.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'true']);
    // The private /tmp comes before the binds inside it, or it would hide them.
    expect(args.indexOf('/tmp')).toBeLessThan(args.indexOf('/tmp/fixloop-x/work'));
  });

  it('mounts scratch space on a folder that exists, after the read-only tree it is in, and none on one that does not', () => {
    const tree = mkdtempSync(join(tmpdir(), 'fixloop-scratch-'));
    try {
      mkdirSync(join(tree, '.vite'));
      const args = bwrapArgs({
        ...plan,
        mounts: [{ path: tree }, { path: join(tree, '.vite'), scratch: true }, { path: join(tree, '.cache'), scratch: true }],
      }).join(' ');
      expect(args).toContain(`--ro-bind ${tree} ${tree} --size 1024 --tmpfs ${join(tree, '.vite')}`);
      expect(args).not.toContain(join(tree, '.cache'));
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('binds a kept /tmp when given one, with an empty HOME over it still', () => {
    const args = bwrapArgs({ ...plan, tmpDir: '/var/fixloop/tmp-1' }).join(' ');
    expect(args).toContain('--bind /var/fixloop/tmp-1 /tmp --size 1024 --tmpfs /tmp/home');
    expect(args).not.toContain('--tmpfs /tmp ');
  });

  it('does not make again a link under /tmp that an earlier command made in the kept /tmp', () => {
    const kept = mkdtempSync(join(tmpdir(), 'fixloop-kept-tmp-'));
    try {
      const link = { path: '/tmp/user-bin/node', target: '/opt/node24/bin/node' };
      const fresh = {
        command: ['true'],
        cwd: '/w',
        env: {},
        toolDirs: [],
        links: [link],
        mounts: [],
        network: false,
        tmpBytes: 1,
      };
      const plan = { ...fresh, tmpDir: kept };
      expect(bwrapArgs(plan).join(' ')).toContain('--symlink /opt/node24/bin/node /tmp/user-bin/node');
      mkdirSync(join(kept, 'user-bin'));
      symlinkSync(link.target, join(kept, 'user-bin', 'node'));
      expect(bwrapArgs(plan).join(' ')).not.toContain('/tmp/user-bin/node');
      expect(bwrapArgs(fresh).join(' ')).toContain('--symlink /opt/node24/bin/node /tmp/user-bin/node');
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }
  });

  it('shares the network only when asked (setup, when the operator allows it)', () => {
    expect(bwrapArgs({ ...plan, network: true })).toContain('--share-net');
  });

  it("keeps only the parent's PATH folders the sandbox can see, tools first", () => {
    expect(
      sandboxPath('/root/.pyenv/shims:/work/app/node_modules/.bin:/usr/local/bin:/usr/bin:relative', ['/opt/node/bin']),
    ).toBe('/opt/node/bin:/usr/local/bin:/usr/bin:/bin');
  });
});

describe('the docker command line', () => {
  it('runs with no network, no capabilities, a read-only root, the limits and the workspace at the same path', () => {
    const args = dockerRunArgs(
      { command: 'npm test', cwd: '/tmp/ws', timeoutMs: 1000, env: { A: '1' } },
      { name: 'fixloop-1', image: 'node:24-slim', limits: DEFAULT_LIMITS, user: '1000:1000' },
    ).join(' ');
    expect(args).toContain('--network none');
    expect(args).toContain('--cap-drop ALL');
    expect(args).toContain('--read-only');
    expect(args).toContain(`--pids-limit ${DEFAULT_LIMITS.processes}`);
    expect(args).toContain(`--memory ${DEFAULT_LIMITS.memoryBytes}`);
    expect(args).toContain('-v /tmp/ws:/tmp/ws');
    expect(args).toContain('-e A=1');
    expect(args).not.toMatch(/-e PATH=/);
    expect(args).toContain('node:24-slim /bin/sh -c');
    expect(args).toContain('--tmpfs /tmp:rw,exec,size=1g');
  });

  it('mounts a kept /tmp when given one, with an empty HOME over it still', () => {
    const args = dockerRunArgs(
      { command: 'npm test', cwd: '/tmp/ws', timeoutMs: 1000, tmpDir: '/var/fixloop/tmp-1' },
      { name: 'fixloop-1', image: 'node:24-slim', limits: DEFAULT_LIMITS, user: '1000:1000' },
    ).join(' ');
    expect(args).toContain('-v /var/fixloop/tmp-1:/tmp --tmpfs /tmp/home:rw,exec,size=256m');
    expect(args).not.toContain('--tmpfs /tmp:');
  });
});

describe('the app’s sandbox settings', () => {
  it('reads limits from FIXLOOP_LIMIT_* and names a bad one', () => {
    expect(limitsFromEnvironment({})).toEqual(DEFAULT_LIMITS);
    expect(limitsFromEnvironment({ FIXLOOP_LIMIT_MEMORY_MB: '512', FIXLOOP_LIMIT_PROCESSES: '64' })).toMatchObject({
      memoryBytes: 512 * 1024 * 1024,
      processes: 64,
    });
    expect(() => limitsFromEnvironment({ FIXLOOP_LIMIT_CPU_SECONDS: 'lots' })).toThrow(
      /FIXLOOP_LIMIT_CPU_SECONDS must be a positive number/,
    );
  });

  it('refuses an unknown backend, naming the setting', () => {
    expect(parseSandboxChoice(undefined, 'FIXLOOP_SANDBOX')).toBe('auto');
    expect(parseSandboxChoice('bwrap', '--sandbox')).toBe('bwrap');
    expect(() => parseSandboxChoice('chroot', '--sandbox')).toThrow(
      '--sandbox: unknown sandbox `chroot`; choose one of auto, bwrap, docker, process',
    );
  });
});

describe.runIf(bwrapWorks())('inside the bwrap sandbox', () => {
  let ws: string;
  let out: string;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    ws = await mkdtemp(join(tmpdir(), 'fixloop-bwrap-ws-'));
    out = await mkdtemp(join(tmpdir(), 'fixloop-bwrap-out-'));
    await writeFile(join(ws, 'in.txt'), 'inside');
    server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(ws, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  });
  const sandbox = createBwrapSandbox();
  const fetchLoopback = () =>
    `node -e "fetch('http://127.0.0.1:${port}').then(r => r.text()).then(console.log, () => console.log('blocked'))"`;

  it('writes the workspace and a writable mount, and nothing else of the host', async () => {
    const r = await sandbox.run({
      command: `cat in.txt; echo made > new.txt; echo out > ${out}/o.txt; (echo x > /usr/x) 2>&1; echo "VISIBLE=$(ls ${join(ws, '..')} | tr '\\n' ' ')"`,
      cwd: ws,
      timeoutMs: 10_000,
      mounts: [{ path: out, writable: true }],
    });
    expect(r.output).toContain('inside');
    expect(r.output).toMatch(/Read-only file system/);
    // Of the host's /tmp, only the workspace and the mount exist inside, and the private HOME (not
    // even fixloop's own Node when it lives under /tmp: the commands run on the user's).
    const expected = [basename(out), basename(ws), 'home'];
    expect(/VISIBLE=(.*)/.exec(r.output)?.[1]?.trim().split(' ').sort()).toEqual(expected.sort());
    expect(await readFile(join(ws, 'new.txt'), 'utf8')).toBe('made\n');
    expect(await readFile(join(out, 'o.txt'), 'utf8')).toBe('out\n');
  });

  it("shows a toolchain prefix that holds fixloop's run records (a pip --user ~/.local), with the records covered", async () => {
    const home = join(out, 'home-op');
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    mkdirSync(join(home, '.local', 'share', 'fixloop'), { recursive: true });
    await writeFile(join(home, '.local', 'bin', 'usertool'), '#!/bin/sh\necho usertool ran\n', { mode: 0o755 });
    await writeFile(join(home, '.local', 'share', 'fixloop', 'record.txt'), 'a run record');
    const user = createBwrapSandbox({ host: { env: { PATH: `${join(home, '.local', 'bin')}:/usr/bin:/bin`, HOME: home } } });
    const r = await user.run({
      command: `usertool; ls ${join(home, '.local', 'share', 'fixloop')} | wc -l`,
      cwd: ws,
      timeoutMs: 10_000,
    });
    expect(r.output).toContain('usertool ran');
    expect(r.output.trim().split('\n').at(-1)?.trim()).toBe('0');
  });

  it('names bwrap as PID 1 but for a command run as its own init, whose PID 1 is itself', async () => {
    const reaped = await sandbox.run({ command: 'cat /proc/1/comm', cwd: ws, timeoutMs: 10_000 });
    expect(reaped.output.trim()).toBe('bwrap');
    const own = await sandbox.run({ command: 'cat /proc/1/comm; echo "pid $$"', cwd: ws, timeoutMs: 10_000, ownInit: true });
    expect(own.output.trim().split('\n')).toEqual(['sh', 'pid 1']);
  });

  it('has a writable /var/tmp of its own, as every machine a program runs on has', async () => {
    const r = await sandbox.run({ command: 'echo scratch > /var/tmp/x && cat /var/tmp/x', cwd: ws, timeoutMs: 10_000 });
    expect(r.output.trim()).toBe('scratch');
  });

  it('has no network unless asked, and then has it', async () => {
    const off = await sandbox.run({ command: fetchLoopback(), cwd: ws, timeoutMs: 10_000 });
    expect(off.output).toContain('blocked');
    const on = await sandbox.run({ command: fetchLoopback(), cwd: ws, timeoutMs: 10_000, network: true });
    expect(on.output).toContain('reached');
  });

  it('keeps /tmp between commands given the same tmpDir, never HOME; a private /tmp otherwise', async () => {
    const kept = await mkdtemp(join(tmpdir(), 'fixloop-bwrap-tmp-'));
    try {
      const write = await sandbox.run({
        command: 'echo cached > /tmp/jest-cache; echo stale > "$HOME/bytecode"; echo "TMPDIR=$TMPDIR"',
        cwd: ws,
        timeoutMs: 10_000,
        tmpDir: kept,
      });
      expect(write.output).toContain('TMPDIR=/tmp');
      const again = await sandbox.run({
        command: 'cat /tmp/jest-cache; ls -A "$HOME"; echo end',
        cwd: ws,
        timeoutMs: 10_000,
        tmpDir: kept,
      });
      expect(again.output.trim().split('\n')).toEqual(['cached', 'end']);
      expect(await readFile(join(kept, 'jest-cache'), 'utf8')).toBe('cached\n');
      const fresh = await sandbox.run({ command: 'cat /tmp/jest-cache 2>&1 || echo none', cwd: ws, timeoutMs: 10_000 });
      expect(fresh.output).toContain('none');
    } finally {
      await rm(kept, { recursive: true, force: true });
    }
  });

  it('runs on the Node the user’s PATH finds (the system’s, without a host view), not on the one running fixloop', async () => {
    const r = await sandbox.run({ command: 'node -p process.version; echo "PATH=$PATH"', cwd: ws, timeoutMs: 10_000 });
    const path = sandboxPath(userPath(process.env.PATH), []);
    const expected = execFileSync('/bin/sh', ['-c', 'node --version'], { env: { PATH: path }, encoding: 'utf8' }).trim();
    expect(r.output.trim().split('\n')).toEqual([expected, `PATH=${path}`]);
    expect(r.output).not.toContain('node_modules');
  });
});
