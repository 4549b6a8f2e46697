// How alike two inputs are, as text: the Levenshtein distance of their canonical arguments. The
// assessment asks it only of the few generated inputs whose result changed, against the failing
// tests' own inputs, so a plain dynamic programme over at most MAX characters is enough.

const MAX = 400;

export function editDistance(a: string, b: string): number {
  const x = a.slice(0, MAX);
  const y = b.slice(0, MAX);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return (previous[y.length] ?? 0) + Math.abs(a.length - x.length - (b.length - y.length));
}
