// The weakening rules on small before/after snippets, JavaScript and Python, each rule once, and
// honest fixes that are not flagged.
import { describe, expect, it } from 'vitest';
import { weakenings } from '../../../../src/engines/repair/weakening/weakens-check.ts';

const js = (body: string) => `function check(value, opt) {\n${body}\n  return value;\n}\n`;
const py = (body: string) => `def check(value, opt):\n${body}\n    return value\n`;

async function reasonJs(before: string, after: string): Promise<string | null> {
  const [reason] = await weakenings([{ file: 'src/check.js', before: js(before), after: js(after) }]);
  return reason ?? null;
}

describe('weakening a check, JavaScript', () => {
  const guard = (test: string) => `  if (${test}) {\n    throw new TypeError('Invalid value');\n  }`;
  it('flags a conjunct added to the guard of a throw, a disjunct removed, || → &&, a negation, a constant guard', async () => {
    expect(await reasonJs(guard('value < 0'), guard('value < 0 && opt.encode'))).toBe(
      'weakens the check that throws "Invalid value" (a conjunct added: `&& opt.encode`)',
    );
    expect(await reasonJs(guard('value < 0'), guard('!opt.strict && (value < 0)'))).toBe(
      'weakens the check that throws "Invalid value" (a conjunct added: `!opt.strict &&`)',
    );
    expect(await reasonJs(guard('value < 0 || value > 9'), guard('value < 0'))).toBe(
      'weakens the check that throws "Invalid value" (a disjunct removed: `|| value > 9`)',
    );
    expect(await reasonJs(guard('value < 0 || value > 9'), guard('value < 0 && value > 9'))).toBe(
      'weakens the check that throws "Invalid value" (`||` → `&&`)',
    );
    expect(await reasonJs(guard('!ok(value)'), guard('ok(value)'))).toBe(
      'weakens the check that throws "Invalid value" (a negation removed)',
    );
    expect(await reasonJs(guard('ok(value)'), guard('!(ok(value))'))).toBe(
      'weakens the check that throws "Invalid value" (a negation added)',
    );
    expect(await reasonJs(guard('value < 0'), guard('false'))).toBe(
      'weakens the check that throws "Invalid value" (made `false`)',
    );
    // Deeper in the condition: one operand of a chain narrowed narrows the chain.
    expect(await reasonJs(guard('value < 0 || bad(value)'), guard('value < 0 || bad(value) && opt.x'))).toBe(
      'weakens the check that throws "Invalid value" (a conjunct added: `&& opt.x`)',
    );
  });

  it('reads a check in the else branch the other way round, and error returns and rejections as checks', async () => {
    const orElse = (test: string) =>
      `  if (${test}) {\n    value = value.trim();\n  } else {\n    throw new Error(\`bad \${value}\`);\n  }`;
    expect(await reasonJs(orElse('typeof value === "string"'), orElse('typeof value === "string" || opt.loose'))).toBe(
      'weakens the check that throws "bad ${value}" (a disjunct added: `|| opt.loose`)',
    );
    const returns = (test: string) => `  if (${test}) return new RangeError('too big');`;
    expect(await reasonJs(returns('value > 9'), returns('value > 9 && opt.limit'))).toMatch(
      /^weakens the check that returns the error "too big" \(a conjunct added/,
    );
    const rejects = (test: string) => `  if (${test}) reject(value);`;
    expect(await reasonJs(rejects('a || b'), rejects('a && b'))).toBe(
      'weakens the check that reports the error `reject(value)` (`||` → `&&`)',
    );
  });

  it('flags any condition made constant, a throw removed, a call statement removed', async () => {
    expect(await reasonJs('  if (value) value = 1;', '  if (false) value = 1;')).toBe(
      'makes the condition of `if` constant (`value` → `false`)',
    );
    expect(await reasonJs('  while (value > 1) value--;', '  while (true) value--;')).toBe(
      'makes the condition of `while` constant (`value > 1` → `true`)',
    );
    expect(await reasonJs("  if (value < 0) throw new Error('neg');\n  log(value);", '  log(value);')).toBe(
      "removes `throw new Error('neg');`",
    );
    expect(
      await reasonJs("  const desc = [];\n  desc.push('');\n  desc.push(value);", '  const desc = [];\n  desc.push(value);'),
    ).toBe("removes the call `desc.push('')`");
  });

  it('does not flag honest fixes: a boundary, a constant, a normalization, a changed method', async () => {
    expect(await reasonJs(guard('value < 0'), guard('value <= 0'))).toBeNull();
    expect(await reasonJs(guard('value > 9'), guard('value > 10'))).toBeNull();
    expect(await reasonJs("  if (value === 'yes') return true;", "  if (value.toLowerCase() === 'yes') return true;")).toBeNull();
    expect(await reasonJs("  out.push('');", "  out.unshift('');")).toBeNull();
    // A conjunct added to a condition that guards no check.
    expect(await reasonJs('  if (value < 0) value = 0;', '  if (value < 0 && opt.clamp) value = 0;')).toBeNull();
  });
});

describe('weakening a check, Python', () => {
  const guard = (test: string) => `    if ${test}:\n        raise ValueError("Invalid value")`;
  const returns = (test: string) => `    if ${test}:\n        return ValueError("négatif")`;
  // One Python process reads every snippet, as the engine asks once for all its plausible candidates.
  const cases: Array<[before: string, after: string, reason: string | null]> = [
    [
      guard('value < 0'),
      guard('value < 0 and opt.encode'),
      'weakens the check that raises "Invalid value" (a conjunct added: `&& opt.encode`)',
    ],
    [
      guard('value < 0 or value > 9 or value == 5'),
      guard('value < 0 or value > 9'),
      'weakens the check that raises "Invalid value" (a disjunct removed: `|| value == 5`)',
    ],
    [
      guard('value < 0 or value > 9'),
      guard('value < 0 and value > 9'),
      'weakens the check that raises "Invalid value" (`||` → `&&`)',
    ],
    [guard('not ok(value)'), guard('ok(value)'), 'weakens the check that raises "Invalid value" (a negation removed)'],
    [guard('value < 0'), guard('False'), 'weakens the check that raises "Invalid value" (made `false`)'],
    [
      returns('value < 0'),
      returns('value < 0 and opt'),
      'weakens the check that returns the error "négatif" (a conjunct added: `&& opt`)',
    ],
    [
      '    if value:\n        value = 1',
      '    if False:\n        value = 1',
      'makes the condition of `if` constant (`value` → `False`)',
    ],
    ['    if value < 0:\n        raise ValueError("neg")\n    log(value)', '    log(value)', 'removes `raise ValueError("neg")`'],
    ["    out.append('')\n    out.append(value)", '    pass\n    out.append(value)', "removes the call `out.append('')`"],
    // Honest fixes: a boundary, a normalization, a constant.
    [guard('value < 0'), guard('value <= 0'), null],
    [guard('value.strip() == ""'), guard('value.strip().lower() == ""'), null],
    [guard('value > 9'), guard('value > 10'), null],
  ];

  it("flags each rule on Python's own tree, and not honest fixes", async () => {
    const reasons = await weakenings(
      cases.map(([before, after]) => ({ file: 'pkg/check.py', before: py(before), after: py(after) })),
    );
    expect(reasons).toEqual(cases.map(([, , reason]) => reason));
  });
});
