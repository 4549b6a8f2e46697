// A check is judged as carefully as a suite (docs/design.md §3.2): a patch that silences the check tool
// (`eslint-disable`, `# noqa`, `// @ts-ignore`, `prettier-ignore`, `# fmt: off`) or changes what
// configures it (its config file, its section of pyproject.toml or setup.cfg, its package.json key)
// is not a fix of what the tool reported, whatever the check then says. Each tool's files and
// comments are its descriptor's (src/checks/).
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import { CHECK_TOOLS } from '../checks/registry.ts';
import type { ChangedText } from './runner-files.ts';

/** The lines a unified diff adds, with the file each is in. */
function addedLines(patch: string): Array<{ path: string; text: string }> {
  const added: Array<{ path: string; text: string }> = [];
  let path = '';
  for (const line of patch.split('\n')) {
    if (line.startsWith('+++ ')) path = line.slice(4).replace(/^b\//, '').trim();
    else if (line.startsWith('+') && !line.startsWith('+++')) added.push({ path, text: line.slice(1) });
  }
  return added;
}

/** Comments the patch adds that silence a check tool: one finding per file and tool. */
export function silencingFindings(patch: string): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const { path, text } of addedLines(patch)) {
    for (const tool of CHECK_TOOLS) {
      const match = tool.silencers.exec(text);
      if (!match || seen.has(`${path}\0${tool.id}`)) continue;
      seen.add(`${path}\0${tool.id}`);
      findings.push({
        kind: 'check_silenced',
        path,
        message: `\`${path}\` gains \`${match[0].trim()}\`, which silences ${tool.id}: a check is fixed in the code, not silenced`,
      });
    }
  }
  return findings;
}

/** The text of the sections whose header matches, in order. */
function sectionText(text: string | null, header: RegExp): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of (text ?? '').split('\n')) {
    if (/^\s*\[/.test(line)) inside = header.test(line.trim());
    if (inside) kept.push(line.trimEnd());
  }
  return kept.join('\n');
}

function packageKeys(text: string | null, keys: readonly string[]): string {
  try {
    const json = JSON.parse(text ?? '{}') as Record<string, unknown>;
    return JSON.stringify(keys.map((k) => json[k] ?? null));
  } catch {
    return `unreadable:${text ?? ''}`;
  }
}

/** Changes to what configures a check tool: its files, its sections of shared files, its package.json keys. */
export function checkConfigFindings(changes: readonly FileChange[], texts: readonly ChangedText[]): Finding[] {
  const textOf = new Map(texts.map((t) => [t.path, t]));
  const findings: Finding[] = [];
  for (const { path } of changes) {
    const name = path.split('/').at(-1) ?? path;
    const text = textOf.get(path);
    const tool = CHECK_TOOLS.find(({ configuration: c }) => {
      if (c.files.test(path)) return true;
      if (!text) return false;
      const section = c.sections[name];
      if (section && sectionText(text.before, section) !== sectionText(text.after, section)) return true;
      return (
        name === 'package.json' &&
        c.packageKeys.length > 0 &&
        packageKeys(text.before, c.packageKeys) !== packageKeys(text.after, c.packageKeys)
      );
    });
    if (tool)
      findings.push({
        kind: 'check_config_changed',
        path,
        message: `\`${path}\`: what configures ${tool.id} changed (a fix may not change how the check judges the code)`,
      });
  }
  return findings;
}
