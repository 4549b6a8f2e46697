// The Python probe's instrumentation (docs/design.md §3.3): the functions a patch changed get a decorator
// that records their calls and calls them on inputs generated around each one (fixloop_probe.py, the
// runtime). Python's own parser (changed_functions.py) finds the functions; this file edits the text,
// so that everything else in the file keeps its bytes and, as far as it can, its line numbers.
import { fileURLToPath } from 'node:url';
import type { InstrumentedFile, ProbedFunction, ProbeTarget } from '../probe-record.ts';
import { runPythonScript } from '../../verify/python-script.ts';

const SCRIPT = fileURLToPath(new URL('./changed_functions.py', import.meta.url));

/** Absolute path of the runtime's entry, the file the header loads. */
export const PYTHON_PROBE_RUNTIME = fileURLToPath(new URL('./fixloop_probe.py', import.meta.url));

/** The runtime's file name inside `target.runtimeDir`, and the one name every instrumented file shares for it. */
export const PYTHON_PROBE_FILE = 'fixloop_probe.py';

/**
 * Every file of the runtime: the caller copies each `from` to `name` in `target.runtimeDir` before
 * the tests run, since the entry loads its parts from its own folder.
 */
export const PYTHON_PROBE_RUNTIME_FILES: ReadonlyArray<{ from: string; name: string }> = [
  PYTHON_PROBE_FILE,
  'fixloop_probe_canon.py',
  'fixloop_probe_path.py',
  'fixloop_probe_strings.py',
  'fixloop_probe_inputs.py',
  'fixloop_probe_replay.py',
  'fixloop_probe_generation.py',
].map((name) => ({
  from: fileURLToPath(new URL(`./${name}`, import.meta.url)),
  name,
}));
const MODULE = '_fixloop_probe';

interface Located {
  functions: Array<{ qualname: string; line: number; start: number; at: number }>;
  anchor: { line: number; col: number } | null;
  first: number | null;
}

/**
 * `source` rewritten so that the innermost def around each of `changedLines` (1-based, this
 * version) records its calls into `target.recordFile`; null when Python cannot parse the file,
 * python3 cannot run, the file declares an encoding the text cannot keep, or no def holds a
 * changed line.
 */
export async function instrumentPython(
  source: string,
  changedLines: ReadonlySet<number>,
  target: ProbeTarget,
): Promise<InstrumentedFile | null> {
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = source.slice(bom.length);
  if (!encodingKeeps(text)) return null;
  const located = await locate(text, [...changedLines]);
  if (located === null || located.functions.length === 0) return null;
  const functions: ProbedFunction[] = located.functions.map((f) => ({
    id: `${target.path}#${f.qualname}`,
    name: f.qualname,
    path: target.path,
    line: f.line,
  }));
  const rewritten = rewrite(text, located, functions, target);
  return rewritten === null ? null : { source: bom + rewritten, functions };
}

/**
 * A coding cookie other than UTF-8 is honoured by declining unless the text is ASCII: the caller
 * writes a string back, and everything this file adds is ASCII, so ASCII text is right in any
 * ASCII-compatible encoding and anything else might not be.
 */
function encodingKeeps(text: string): boolean {
  const cookie = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;
  const [one = '', two = ''] = text.split(/\r\n|\r|\n/, 2);
  const declared = cookie.exec(one)?.[1] ?? (/^[ \t\f]*(#.*)?$/.test(one) ? cookie.exec(two)?.[1] : undefined);
  if (declared === undefined) return true;
  if (/^(utf[-_]?8)([-_].*)?$/i.test(declared)) return true;
  return !/[^\p{ASCII}]/u.test(text);
}

function rewrite(text: string, located: Located, functions: ProbedFunction[], target: ProbeTarget): string | null {
  // Lines with their own line ends, split where Python's tokenizer splits them.
  const lines = text.match(/[^\r\n]*(\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  // A new line ends as the line it goes above does (or the one before, at the end of the file).
  const eol = (at: number) => /(\r\n|\r|\n)$/.exec(lines[at] ?? lines[at - 1] ?? '')?.[0] ?? /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
  const header = headerCode(target.runtimeDir);
  // What the changed lines name, as JSON the runtime reads (change-values.ts).
  const values = target.values ? `, ${pyString(JSON.stringify(target.values))}` : '';
  const inserts = new Map<number, string>();
  located.functions.forEach((f, i) => {
    const defLine = lines[f.line - 1] ?? '';
    const indent = /^[ \t\f]*/.exec(defLine)?.[0] ?? '';
    const id = functions[i]?.id ?? '';
    inserts.set(f.at - 1, `${indent}@${MODULE}.probe(${pyString(id)}, ${pyString(target.recordFile)}${values})${eol(f.at - 1)}`);
  });
  if (located.anchor !== null) {
    const { line, col } = located.anchor;
    const chars = Array.from(lines[line - 1] ?? '');
    lines[line - 1] = `${chars.slice(0, col).join('')}; ${header}${chars.slice(col).join('')}`;
  } else if (located.first !== null) {
    const at = located.first - 1;
    inserts.set(at, `${header}${eol(at)}${inserts.get(at) ?? ''}`);
  } else {
    return null;
  }
  return lines.map((line, i) => (inserts.get(i) ?? '') + line).join('');
}

/**
 * One line of simple statements (so it can follow a docstring after `;`): load the runtime once per
 * process under one module name, by path, with no import-system warning on any Python from 3.8.
 */
function headerCode(runtimeDir: string): string {
  const path = `${runtimeDir.replace(/[\\/]+$/, '')}/${PYTHON_PROBE_FILE}`;
  const util = "__import__('importlib.util').util";
  const modules = "__import__('sys').modules";
  return (
    `${MODULE} = ${modules}.get('${MODULE}') or ${util}.module_from_spec(${util}.spec_from_file_location('${MODULE}', ${pyString(path)})); ` +
    `hasattr(${MODULE}, 'probe') or (${modules}.__setitem__('${MODULE}', ${MODULE}), ${MODULE}.__spec__.loader.exec_module(${MODULE}))`
  );
}

/** A Python string literal in ASCII, whatever the text holds. */
function pyString(value: string): string {
  let out = "'";
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}'`;
}

async function locate(text: string, lines: number[]): Promise<Located | null> {
  const out = await runPythonScript(SCRIPT, JSON.stringify({ source: text, lines }));
  try {
    return out === null ? null : (JSON.parse(out) as Located);
  } catch {
    return null;
  }
}
