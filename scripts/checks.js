// `npm run checks`: the type check, the linter and the dependency rules at once, each its own
// process (about 15 s together on 2 cores where one after another took 25 s). Each one's output is
// printed whole once it ends, under its name, so the three never interleave; the exit code is the
// first failure's, after all three have ended (one failure does not hide another).
// Plain JavaScript: npm may start it on a Node older than 24.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['typecheck', 'tsc -p tsconfig.json'],
  ['lint', 'eslint .'],
  ['deps', 'depcruise src --config .dependency-cruiser.mjs'],
];

function check([name, command]) {
  return new Promise((resolve) => {
    const started = Date.now();
    // npm puts node_modules/.bin on PATH for a script; a shell finds the command there.
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, command, code: 127, output: Buffer.from(`${error.message}\n`), seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({
        name,
        command,
        code: code ?? (signal ? 128 : 1),
        output: Buffer.concat(output),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

const results = await Promise.all(CHECKS.map(check));
for (const result of results) {
  const verdict = result.code === 0 ? 'passed' : `failed (exit ${result.code})`;
  process.stdout.write(`\n> ${result.name}: ${result.command}: ${verdict} in ${result.seconds.toFixed(1)} s\n`);
  process.stdout.write(result.output);
}
const failed = results.find((result) => result.code !== 0);
process.exitCode = failed ? failed.code : 0;
