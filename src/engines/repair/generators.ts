// The candidate generator for each file extension.
import { extname } from 'node:path';
import type { CandidateGenerator } from './candidate.ts';
import { jsGenerator } from './templates/js/js-generator.ts';
import { pythonGenerator } from './templates/python/python-generator.ts';
import { tokenGenerator } from './templates/token/token-generator.ts';

const GENERATORS: CandidateGenerator[] = [jsGenerator, pythonGenerator, tokenGenerator];

export function generatorFor(file: string): CandidateGenerator | null {
  const ext = extname(file);
  return GENERATORS.find((g) => g.extensions.includes(ext)) ?? null;
}
