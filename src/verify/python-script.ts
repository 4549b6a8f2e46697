// Runs one of fixloop's own Python scripts (a reader of Python's syntax tree: the judge's tampering
// check, the assessment's function finder, the repair engine's weakening facts) on JSON given on
// stdin. Host python3 (past pyenv's shim: own-python.ts) in isolated mode, with only what Python
// needs: fixloop's environment is not the parser's business. Null when Python cannot run, fails or takes longer than `timeoutMs`.
import { spawn } from 'node:child_process';
import { ownPython } from '../sandbox/own-python.ts';

export function runPythonScript(script: string, input: string, timeoutMs = 30_000): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(ownPython(), ['-I', script], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONIOENCODING: 'utf-8' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? out : null);
    });
    child.stdin.end(input);
  });
}
