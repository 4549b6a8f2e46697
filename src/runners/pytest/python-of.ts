// The interpreter a pytest command runs under, for fixloop's own Python commands beside it (the names
// pytest loads, loaded-names.ts; the assessment's look from outside the runner): the same interpreter
// has the repository's dependencies installed.

/** `X -m pytest` → X; `dir/pytest` → `dir/python`; else python3. */
export function pythonOf(command: string): string {
  const module = /(^|[\s;&|])(\S*python[\d.]*)\s+-m\s+pytest\b/.exec(command);
  if (module?.[2]) return module[2];
  const script = /(^|[\s;&|])(\S*\/)pytest\b/.exec(command);
  return script?.[2] ? `${script[2]}python` : 'python3';
}
