// The versions a repository pins for its toolchain (`.nvmrc`, `.node-version`, package.json's
// `engines.node`, `.python-version`), read from its checkout, and the ones the tool that runs its
// commands does not satisfy: a fix verified on Node 20 in a repository that asks for 22 is worth a line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolVersion } from './tool-versions.ts';
import { matchesPrefix, satisfiesRange } from './version-range.ts';

export interface VersionPin {
  /** The language whose interpreter it pins. */
  tool: 'node' | 'python';
  /** The file that asks: `.nvmrc`, `package.json` (engines.node). */
  file: string;
  /** What it asks for, as written: `22`, `>=18 <21`, `3.11`. */
  wants: string;
  /** A range (`engines`) or a version prefix (the version files). */
  kind: 'range' | 'prefix';
}

export interface VersionMismatch {
  tool: 'node' | 'python';
  /** The program that runs the tests (`node`, `python3`) and its version; null when it printed none. */
  program: string;
  version: string | null;
  /** What the program said instead of a version (a pyenv shim whose version is missing), when it printed none. */
  said?: string;
  file: string;
  wants: string;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The first line of a version file that is not blank or a comment. */
function firstEntry(text: string | null): string | null {
  return (
    text
      ?.split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .find(Boolean) ?? null
  );
}

function enginesNode(text: string | null): string | null {
  try {
    const engines = (JSON.parse(text ?? '') as { engines?: { node?: unknown } }).engines;
    return typeof engines?.node === 'string' && engines.node.trim() ? engines.node.trim() : null;
  } catch {
    return null;
  }
}

/** The pins in a checkout's root. pyenv reads the first version of `.python-version`: so does this. */
export function readVersionPins(root: string): VersionPin[] {
  const pins: VersionPin[] = [];
  for (const file of ['.nvmrc', '.node-version']) {
    const wants = firstEntry(read(join(root, file)));
    if (wants) pins.push({ tool: 'node', file, wants, kind: 'prefix' });
  }
  const engines = enginesNode(read(join(root, 'package.json')));
  if (engines) pins.push({ tool: 'node', file: 'package.json (engines.node)', wants: engines, kind: 'range' });
  const python = firstEntry(read(join(root, '.python-version')))?.split(/\s+/)[0];
  if (python) pins.push({ tool: 'python', file: '.python-version', wants: python, kind: 'prefix' });
  return pins;
}

const PROGRAMS: Record<VersionPin['tool'], string[]> = { node: ['node'], python: ['python3', 'python'] };

function check(pin: VersionPin, version: string): boolean | null {
  return pin.kind === 'range' ? satisfiesRange(version, pin.wants) : matchesPrefix(version, pin.wants);
}

/**
 * The pins the tools found do not satisfy. A pin not understood (`lts/*`, a pyenv virtualenv's name, a
 * range beyond npm's usual syntax) claims nothing; a tool that printed no version (pyenv's shim for a
 * version that is not installed) does not satisfy a pin it understands. A tool not found is left out:
 * the repository's commands may not need it, and if they do, the baseline says so.
 */
export function versionMismatches(pins: VersionPin[], tools: ToolVersion[]): VersionMismatch[] {
  return pins.flatMap((pin): VersionMismatch[] => {
    const tool = PROGRAMS[pin.tool].map((name) => tools.find((t) => t.name === name)).find((t) => t !== undefined);
    if (!tool || check(pin, '0.0.0') === null) return [];
    const mismatch = { tool: pin.tool, program: tool.name, file: pin.file, wants: pin.wants };
    if (!tool.version) return [{ ...mismatch, version: null, said: tool.said }];
    return check(pin, tool.version) === false ? [{ ...mismatch, version: tool.version }] : [];
  });
}
