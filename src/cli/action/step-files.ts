// The step's outputs (GITHUB_OUTPUT) and its summary (GITHUB_STEP_SUMMARY), appended as the runner
// expects. Outputs use the multi-line form `name<<DELIMITER`, with a delimiter that is random and
// checked against the value, so no value (a report, a URL) can end its own entry or forge another.
import { randomBytes } from 'node:crypto';
import { appendFile } from 'node:fs/promises';

export async function writeOutputs(path: string | null, outputs: Record<string, string>): Promise<void> {
  if (!path) return;
  let text = '';
  for (const [name, value] of Object.entries(outputs)) {
    let delimiter = `fixloop_${randomBytes(12).toString('hex')}`;
    while (value.includes(delimiter)) delimiter = `fixloop_${randomBytes(12).toString('hex')}`;
    text += `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }
  await appendFile(path, text);
}

export async function writeSummary(path: string | null, markdown: string): Promise<void> {
  if (!path) return;
  await appendFile(path, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}
