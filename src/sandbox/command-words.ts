// The programs a shell command line runs through PATH (the first word of each simple command), so the
// sandbox can show the toolchains they come from without the operator listing them. An approximation
// of sh's grammar, good enough for setup and test commands: a name it misses is simply not bound,
// and a word it takes for a program is only looked up on the server's PATH.

/** Words that start no program: shell keywords, and builtins that run what follows them. */
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'in',
  'function',
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'time',
]);
/** Wrappers whose next word (after their options and assignments) is the program. */
const WRAPPERS = new Set(['env', 'exec', 'command', 'nice', 'nohup', 'timeout', 'xargs', 'stdbuf']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);

/** Splits on the operators that separate simple commands (`;`, `&&`, `||`, `|`, `&`, newlines, parentheses, `$(`), outside quotes. */
function simpleCommands(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote) {
      // Quoted text stays as it is (words() removes the quotes); only its end is looked for.
      current += c;
      if (c === '\\' && quote === '"') current += line[++i] ?? '';
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      current += c + (line[++i] ?? '');
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (';&|\n()`'.includes(c) || (c === '$' && line[i + 1] === '(')) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Words of one simple command, quotes removed. */
function words(command: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|((?:[^\s'"\\]|\\.)+)/g;
  let word = '';
  let last = -1;
  for (const m of command.matchAll(re)) {
    const text = m[1] ?? (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
    // Adjacent pieces (`a"b"c`) make one word.
    if (m.index === last) word += text;
    else {
      if (last !== -1) out.push(word);
      word = text;
    }
    last = m.index + m[0].length;
  }
  if (last !== -1) out.push(word);
  return out;
}

function programOf(ws: string[], found: string[]): void {
  let i = 0;
  while (i < ws.length) {
    const w = ws[i] ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || KEYWORDS.has(w)) {
      i++;
      continue;
    }
    // A path or an expansion is not looked up on PATH: the repository's own script, or unknown.
    if (w.includes('/') || w.includes('$') || w === '') return;
    found.push(w);
    if (SHELLS.has(w) && ws[i + 1] === '-c' && ws[i + 2] !== undefined) {
      for (const name of commandPrograms(ws[i + 2] ?? '')) found.push(name);
      return;
    }
    if (!WRAPPERS.has(w)) return;
    // Skip the wrapper's options (and a `timeout` duration) to reach the program it runs.
    i++;
    while (i < ws.length && (/^-/.test(ws[i] ?? '') || (w === 'timeout' && /^\d/.test(ws[i] ?? '')))) i++;
  }
}

/** The programs `line` runs by name, each once, in order of appearance. */
export function commandPrograms(line: string): string[] {
  const found: string[] = [];
  for (const command of simpleCommands(line)) programOf(words(command), found);
  return [...new Set(found)];
}
