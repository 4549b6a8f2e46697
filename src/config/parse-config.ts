// Parses and validates a fixloop.yml text; every problem is reported with its key, its line (when
// the text is known) and its reason, and a misspelt key with the key it most likely meant.
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { closestKey, knownKeysAt } from './known-keys.ts';
import { repoConfigSchema, type RepoConfig } from '../core/repo-config.ts';
import { withCheckCascade } from './check-cascade.ts';

export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** The line a key (or the value at a path) sits on in the file, when the text is known. */
export type LineOf = (path: readonly PropertyKey[]) => number | null;

function joinKey(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/** ` (line 4; did you mean …?)`: what helps find and mend a problem, when known. */
function notes(lineOf: LineOf | undefined, path: readonly PropertyKey[], meant: string | null = null): string {
  const line = lineOf?.(path);
  const parts = [line ? `line ${line}` : null, meant ? `did you mean \`${meant}\`?` : null].filter((p) => p !== null);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

export function describeIssue(issue: z.core.$ZodIssue, lineOf?: LineOf): { key: string; message: string } {
  const key = formatIssuePath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(repoConfigSchema, issue.path);
    const described = issue.keys.map((k) => {
      const meant = closestKey(k, known);
      return `\`${joinKey(key, k)}\`${notes(lineOf, [...issue.path, k], meant ? joinKey(key, meant) : null)}`;
    });
    const noun = issue.keys.length > 1 ? 'unknown keys' : 'unknown key';
    return { key: issue.keys[0] ? joinKey(key, issue.keys[0]) : key, message: `${noun} ${described.join(', ')}` };
  }
  return { key, message: `\`${key || '(root)'}\`${notes(lineOf, issue.path)}: ${issue.message}` };
}

/** Validates an already-parsed value (YAML document, or the object Probot's config loader returns). */
export function validateRepoConfig(value: unknown, source: string, lineOf?: LineOf): RepoConfig {
  const result = repoConfigSchema.safeParse(value ?? {});
  if (result.success) return withCheckCascade(result.data, typeof value === 'object' && value !== null && 'engines' in value);
  const problems = result.error.issues.map((issue) => describeIssue(issue, lineOf));
  const first = problems[0];
  if (!first) throw new ConfigError(`${source}: invalid configuration`);
  // Every problem at once: fixing a file one error per run is a slow conversation.
  if (problems.length === 1) throw new ConfigError(`${source}: ${first.message}`, first.key || null);
  throw new ConfigError(
    `${source}: ${problems.length} problems:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
    first.key || null,
  );
}

/** Where each key of the document is written: a key's own line, else its value's, else its parent's. */
function lineFinder(doc: Document, lines: LineCounter): LineOf {
  return (path) => {
    for (let depth = path.length; depth > 0; depth--) {
      const parent = depth === 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1), true);
      const last = path[depth - 1];
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
        const node = pair && isScalar(pair.key) ? pair.key : null;
        if (node?.range) return lines.linePos(node.range[0]).line;
      }
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    return null;
  };
}

export function parseRepoConfig(text: string, source: string): RepoConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, lineCounter: lines });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const position = yamlError.linePos?.[0];
    const where = position ? ` at line ${position.line}, column ${position.col}` : '';
    // yaml's pretty message is the reason, its position, then a frame of the lines with a caret.
    const [reason = '', ...frame] = yamlError.message.split('\n');
    const shown = frame.join('\n').replace(/^\n+|\s+$/g, '');
    throw new ConfigError(
      `${source}: not valid YAML${where}: ${reason.replace(/ at line \d+, column \d+:?$/, '')}${shown ? `\n${shown}` : ''}`,
    );
  }
  const value: unknown = doc.toJS();
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ConfigError(`${source}: the file must hold a mapping of settings (test, setup, paths, ...)`);
  }
  return validateRepoConfig(value, source, lineFinder(doc, lines));
}
