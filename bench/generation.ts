// How the repair engine's candidate generation scales (issue "The repair engine on real bugs", item 3):
// candidates for 400 suspicious lines of a large real source file, per language, timed over a few
// runs. The files are the machine's own: acorn's bundle from node_modules (JavaScript, ~6,400 lines)
// and Python's _pydecimal.py from the standard library (~6,400 lines).
//   node bench/generation.ts [--runs N] [--lines N]
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatorFor } from '../src/engines/repair/generators.ts';
import { median } from './lib/stats.ts';
import { flag } from './lib/args.ts';

const runs = Number(flag('--runs') ?? 3);
const lineCount = Number(flag('--lines') ?? 400);

const SUBJECTS = [
  {
    language: 'JavaScript',
    path: fileURLToPath(new URL('../node_modules/acorn/dist/acorn.js', import.meta.url)),
    as: 'src/acorn.js',
  },
  {
    language: 'TypeScript',
    path: fileURLToPath(new URL('../node_modules/acorn/dist/acorn.js', import.meta.url)),
    as: 'src/acorn.ts',
  },
  { language: 'Python', path: pythonStdlibFile('_pydecimal.py'), as: 'src/decimal.py' },
];

function pythonStdlibFile(name: string): string {
  for (const dir of ['/usr/lib/python3.11', '/usr/lib/python3.12', '/usr/lib/python3.13'])
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  return `/usr/lib/python3/${name}`;
}

/** `count` code lines spread evenly over the file (blank lines and comments skipped). */
function spreadLines(source: string, count: number): Set<number> {
  const code = source.split('\n').flatMap((text, i) => (/^\s*($|\/\/|#|\*|\/\*)/.test(text) ? [] : [i + 1]));
  const step = Math.max(1, Math.floor(code.length / count));
  return new Set(code.filter((_, i) => i % step === 0).slice(0, count));
}

console.log(
  `| Language | File | Lines | Suspicious lines | Candidates | Median (s) | Runs (s) |\n| --- | --- | ---: | ---: | ---: | ---: | --- |`,
);
for (const subject of SUBJECTS) {
  if (!existsSync(subject.path)) {
    console.log(`| ${subject.language} | ${subject.path} missing | | | | | |`);
    continue;
  }
  const source = readFileSync(subject.path, 'utf8');
  const lines = spreadLines(source, lineCount);
  const generator = generatorFor(subject.as);
  if (!generator) throw new Error(`no generator for ${subject.as}`);
  const times: number[] = [];
  let candidates = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    candidates = (await generator.generate(subject.as, source, lines)).length;
    times.push((performance.now() - started) / 1000);
  }
  console.log(
    `| ${subject.language} | ${subject.path.replace(/^.*node_modules\//, 'node_modules/')} | ${source.split('\n').length} | ${lines.size} | ${candidates} | ${(median(times) ?? 0).toFixed(2)} | ${times.map((t) => t.toFixed(2)).join(', ')} |`,
  );
}
