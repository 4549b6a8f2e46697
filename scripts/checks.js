// `npm run checks`: the type checks, the linters, the formatter's check and the dependency rules at
// once, each its own process (about 15 s together on 2 cores where one after another took 25 s). Each
// one's output is printed whole once it ends, under its name, so they never interleave; the exit code
// is the first failure's, after all have ended (one failure does not hide another).
// Plain JavaScript: npm may start it on a Node older than 24.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKS = [
  ['typecheck', 'tsc -p tsconfig.json'],
  // The CommonJS fixloop preloads into the repository's test processes, typed by its JSDoc.
  ['typecheck-cjs', 'tsc -p tsconfig.cjs.json'],
  ['lint', 'eslint .'],
  ['format', 'prettier --check .'],
  ['deps', 'depcruise src --config .dependency-cruiser.mjs'],
  // The Python fixloop runs: lint (Debian's pyflakes3), then parse on the oldest Python and sizes.
  ['pyflakes', 'pyflakes3 src scripts', { needs: 'pyflakes3', debian: 'pyflakes3' }],
  ['python', 'python3 scripts/check-python.py'],
];

const BIN = fileURLToPath(new URL('../node_modules/.bin', import.meta.url));

/** Whether `command` is an executable file in a folder of PATH. */
function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder || '.', command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function check([name, command, tool]) {
  return new Promise((resolve) => {
    // A missing linter fails the check, saying what to install: a check skipped in silence checks nothing.
    if (tool && !onPath(tool.needs)) {
      const message = `${tool.needs} is not on PATH: install it (Debian package ${tool.debian}: apt-get install ${tool.debian})\n`;
      return resolve({ name, command, code: 127, output: Buffer.from(message), seconds: 0 });
    }
    const started = Date.now();
    // npm puts node_modules/.bin on PATH for a script; `node scripts/checks.js` gets it here. A shell
    // finds the command there.
    const env = { ...process.env, PATH: [BIN, process.env.PATH].filter(Boolean).join(delimiter) };
    const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
