// How far two inputs are when they differ only in their numbers: `grade(-95)` is nearer to `grade(20)`
// (115) than to `grade(95)` (190), which their text does not say (one character from 95, three from
// 20). The canonical arguments of both languages (probe-record.ts `args`) are read as a shape (the
// text with each number outside a string literal replaced by `#`) and the numbers in it.

/** A number as both probes write it: JavaScript (`-0`, `NaN`, `Infinity`, `1e+21`) and Python (`nan`, `-inf`). */
const NUMBER = /^(?:-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|Infinity|inf)|NaN|nan)/;
const WORD = /[\w$.]/;

function shapeOf(text: string): { shape: string; numbers: number[] } {
  let shape = '';
  const numbers: number[] = [];
  for (let i = 0; i < text.length;) {
    const char = text[i] ?? '';
    if (char === "'" || char === '"') {
      // A string literal (with its escapes) is part of the shape, digits and all.
      let end = i + 1;
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1;
      shape += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const match = i > 0 && WORD.test(text[i - 1] ?? '') ? null : NUMBER.exec(text.slice(i));
    if (match && !WORD.test(text[i + match[0].length] ?? '')) {
      shape += '#';
      numbers.push(Number(match[0].replace(/inf$/, 'Infinity').replace(/^nan$/, 'NaN')));
      i += match[0].length;
      continue;
    }
    shape += char;
    i++;
  }
  return { shape, numbers };
}

function gap(a: number, b: number): number {
  if (Object.is(a, b) || a === b) return 0;
  const d = Math.abs(a - b);
  return Number.isNaN(d) ? Infinity : d;
}

/** The sum of the numbers' differences, or null when the inputs differ in more than numbers (or hold none). */
export function numericDistance(a: string, b: string): number | null {
  const x = shapeOf(a);
  const y = shapeOf(b);
  if (x.shape !== y.shape || x.numbers.length === 0) return null;
  return x.numbers.reduce((sum, n, i) => sum + gap(n, y.numbers[i] ?? 0), 0);
}

/**
 * Where `b` differs from `a` when it differs in exactly one of their numbers: that number's place
 * among them (`slot`) and how much higher it is in `b` (`delta`); else null.
 */
export function numericSlotOffset(a: string, b: string): { slot: number; delta: number } | null {
  const x = shapeOf(a);
  const y = shapeOf(b);
  if (x.shape !== y.shape) return null;
  const differing = x.numbers.flatMap((n, slot) => (gap(n, y.numbers[slot] ?? n) === 0 ? [] : [slot]));
  const [slot] = differing;
  if (differing.length !== 1 || slot === undefined) return null;
  const delta = (y.numbers[slot] ?? 0) - (x.numbers[slot] ?? 0);
  return Number.isFinite(delta) && delta !== 0 ? { slot, delta } : null;
}
