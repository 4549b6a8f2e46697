// A wrong-but-plausible patch written by hand, added beside the bug's generated mutants
// (bench/lib/mutant-hand.ts): its patch as `<hash>.patch` and an entry of mutants.json with origin
// `hand`, unrun; with `--program`, its separation program copied next to it. Then
// `node bench/mutant-separate.ts --filter <id>` runs the whole suite on it and the program.
// Run: node bench/mutant-hand.ts <bug id> <patch file> --kind <kind> --description <text> [--program <file.mjs|.py>]
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { addHandPatch } from './lib/mutant-hand.ts';
import { mutantsDir } from './lib/mutant-files.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const [id, patchFile] = args;
const kind = flag('--kind');
const description = flag('--description');
const program = flag('--program');
if (!id || !patchFile || !kind || !description)
  throw new Error('usage: node bench/mutant-hand.ts <bug id> <patch file> --kind <kind> --description <text> [--program <file>]');
if (program && !['.mjs', '.py'].includes(extname(program))) throw new Error(`--program ${program}: a .mjs or .py file`);
const bugDir = join(root, 'bench/real', id);
if (!existsSync(join(bugDir, 'fix.patch'))) throw new Error(`${id}: not built here (no bench/real/${id}/fix.patch)`);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const added = addHandPatch(bugDir, id, commit, { kind, description, patch: readFileSync(patchFile, 'utf8') });
if (typeof added === 'string') throw new Error(`${id}: ${added}`);
if (program) copyFileSync(program, join(mutantsDir(bugDir), `${added.hash}.separate${extname(program)}`));
console.log(`${id}: ${added.hash} written by hand${program ? ', with its separation program' : ''}`);
