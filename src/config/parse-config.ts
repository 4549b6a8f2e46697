// Parses and validates a fixloop.yml text; every problem is reported with its key and reason.
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { repoConfigSchema, type RepoConfig } from '../core/repo-config.ts';

export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

export function describeIssue(issue: z.core.$ZodIssue): { key: string; message: string } {
  const key = formatIssuePath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
    return { key: keys[0] ?? key, message: `unknown key ${keys.map((k) => `\`${k}\``).join(', ')}` };
  }
  return { key, message: `\`${key || '(root)'}\`: ${issue.message}` };
}

/** Validates an already-parsed value (YAML document, or the object Probot's config loader returns). */
export function validateRepoConfig(value: unknown, source: string): RepoConfig {
  const result = repoConfigSchema.safeParse(value ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map(describeIssue);
  const first = problems[0];
  if (!first) throw new ConfigError(`${source}: invalid configuration`);
  // Every problem at once: fixing a file one error per run is a slow conversation.
  if (problems.length === 1) throw new ConfigError(`${source}: ${first.message}`, first.key || null);
  throw new ConfigError(`${source}: ${problems.length} problems:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`, first.key || null);
}

export function parseRepoConfig(text: string, source: string): RepoConfig {
  const doc = parseDocument(text, { prettyErrors: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const position = yamlError.linePos?.[0];
    const where = position ? ` at line ${position.line}, column ${position.col}` : '';
    // yaml's pretty message is the reason, its position, then a frame of the lines with a caret.
    const [reason = '', ...frame] = yamlError.message.split('\n');
    const shown = frame.join('\n').replace(/^\n+|\s+$/g, '');
    throw new ConfigError(`${source}: not valid YAML${where}: ${reason.replace(/ at line \d+, column \d+:?$/, '')}${shown ? `\n${shown}` : ''}`);
  }
  const value: unknown = doc.toJS();
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ConfigError(`${source}: the file must hold a mapping of settings (test, setup, paths, ...)`);
  }
  return validateRepoConfig(value, source);
}
