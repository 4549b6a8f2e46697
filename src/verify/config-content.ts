// The runner's settings in a file that holds more than them (pyproject.toml, setup.cfg, tox.ini),
// read as the runner reads them, so a patch is compared by what they say and not by how they are
// written (docs/design.md §3.2.2): TOML parsed (dotted keys under a plain `[tool]` table, or at the
// top, are `tool.pytest` too), INI read as Python's configparser reads it (a section by its name,
// options lower-cased, continuation lines joined, comments dropped).
import { parse as parseToml } from 'smol-toml';

/**
 * The tables at `paths` (dotted: `tool.pytest`) of a TOML text, as one canonical text; `unreadable`
 * when the text does not parse (then any change counts), '' for no text.
 */
export function tomlTables(text: string | null, paths: readonly string[]): string {
  if (text === null) return '';
  let document: unknown;
  try {
    document = parseToml(text);
  } catch {
    return `unreadable:${text}`;
  }
  return canonical(paths.map((path) => path.split('.').reduce<unknown>((node, key) => childOf(node, key), document)));
}

function childOf(node: unknown, key: string): unknown {
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
}

/** JSON with object keys sorted, so the order the file wrote them in does not count. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * The options of the sections whose name `wanted` accepts, in file order, as one canonical text,
 * read as configparser reads an INI file: a section header is a line `[name]`; `key = value` or
 * `key: value` with the key lower-cased; a line indented more than its option continues its value;
 * lines starting with `#` or `;` are comments.
 */
export function iniSections(text: string | null, wanted: (name: string) => boolean): string {
  const sections: Array<[string, Array<[string, string]>]> = [];
  let current: Array<[string, string]> | null = null;
  let option: [string, string] | null = null;
  let optionIndent = 0;
  for (const line of (text ?? '').split(/\r?\n/)) {
    const stripped = line.trim();
    const indent = line.length - line.trimStart().length;
    if (stripped === '' || /^[#;]/.test(stripped)) continue;
    if (option && indent > optionIndent) {
      option[1] = `${option[1]}\n${stripped}`;
      continue;
    }
    const header = /^\[(.+)\]/.exec(stripped);
    if (header) {
      const name = header[1] ?? '';
      current = wanted(name) ? [] : null;
      if (current) sections.push([name, current]);
      option = null;
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(stripped);
    option = pair ? [(pair[1] ?? '').toLowerCase(), pair[2] ?? ''] : [stripped.toLowerCase(), ''];
    optionIndent = indent;
    current?.push(option);
  }
  return JSON.stringify(sections);
}
