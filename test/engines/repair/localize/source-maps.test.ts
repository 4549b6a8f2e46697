import { describe, expect, it } from 'vitest';
import { inlineSourceMap } from '../../../../src/engines/repair/localize/source-maps.ts';

const MAP = Buffer.from(JSON.stringify({ version: 3, sources: ['clamp.ts'], names: [], mappings: 'AAAA' })).toString('base64');
const COMMENT = `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${MAP}`;

describe('inlineSourceMap', () => {
  it('reads the map a transform appended, inside the wrapper each runner closes its code with', () => {
    expect(inlineSourceMap(`x();\n${COMMENT}`)).not.toBeNull();
    // jest's module wrapper, then vite-node's (vitest 3).
    expect(inlineSourceMap(`x();\n${COMMENT}\n}});`)).not.toBeNull();
    expect(inlineSourceMap(`x();\n${COMMENT}\n\n}}`)).not.toBeNull();
    expect(inlineSourceMap('x();\n//# vitestCache=W10=\n}}')).toBeNull();
  });
});
