// An instrumented TypeScript file must still type-check under the project's own settings: a
// transformer that checks types (ts-jest) refuses to load a file with an error, and the suite then
// runs without the tests that import it, recording no call. Checked here with the strictest flags a
// project commonly sets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentJs } from '../../../src/assess/js/probe.ts';

const dir = mkdtempSync(join(tmpdir(), 'fixloop-probe-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = [
  'export function first(list: string[], wanted: string): string | undefined {',
  '  for (const item of list) if (item === wanted) return item;',
  '  return undefined;',
  '}',
  'export function* pairs(list: string[]): Generator<[number, string]> {',
  '  for (let i = 0; i < list.length; i++) yield [i, list[i] as string];',
  '}',
  'export class Walker {',
  '  items: number[] = [];',
  '  *each(step: number): IterableIterator<number> {',
  '    for (const x of this.items) yield x * step;',
  '  }',
  '  total = (by: number): number => this.items.reduce((a, b) => a + b, 0) * by;',
  '}',
  '',
].join('\n');

function diagnostics(source: string): string[] {
  const file = join(dir, 'lib.ts');
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitReturns: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(process.cwd(), 'node_modules/@types')],
    noEmit: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.start ?? 0}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('an instrumented TypeScript file', () => {
  it('type-checks with strict, noUnusedLocals and noUnusedParameters, its generators and arrows probed too', () => {
    expect(diagnostics(SOURCE)).toEqual([]);
    const probed = instrumentJs(SOURCE, new Set([2, 6, 11, 13]), {
      recordFile: join(dir, '.fixloop-probe/records.jsonl'),
      path: 'src/lib.ts',
      runtimeDir: join(dir, '.fixloop-probe'),
    });
    expect(probed?.functions.map((f) => f.name)).toEqual(['first', 'pairs', 'Walker.each', 'Walker.total']);
    expect(diagnostics(probed?.source ?? '')).toEqual([]);
  });
});
