// A Python test file with the expected values of its fixed tests changed (changed_expectations.py),
// for the look that asks whether those tests can still fail (changed-expectations.ts).
import { fileURLToPath } from 'node:url';
import type { ChangedText } from './js-expectations.ts';
import { runPythonScript } from './python-script.ts';

const SCRIPT = fileURLToPath(new URL('./changed_expectations.py', import.meta.url));

/** `names`: `test_x` or `TestClass.test_x`. Null when the file does not parse or Python cannot run. */
export async function changedPyExpectations(text: string, names: readonly string[]): Promise<ChangedText | null> {
  const out = await runPythonScript(SCRIPT, JSON.stringify({ source: text, names }));
  if (out === null) return null;
  try {
    return JSON.parse(out) as ChangedText;
  } catch {
    return null;
  }
}

/** The name a pytest id gives its test function (`tests/test_a.py::TestK::test_b[1-2]` → `TestK.test_b`). */
export function pytestFunctionName(id: string): string | null {
  const parts = id.split('::');
  if (parts.length < 2) return null;
  return parts
    .slice(1)
    .join('.')
    .replace(/\[.*\]$/s, '');
}
