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
  const first = result.error.issues[0];
  if (!first) throw new ConfigError(`${source}: invalid configuration`);
  const { key, message } = describeIssue(first);
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more problem(s))` : '';
  throw new ConfigError(`${source}: ${message}${more}`, key || null);
}

export function parseRepoConfig(text: string, source: string): RepoConfig {
  const doc = parseDocument(text, { prettyErrors: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const where = yamlError.linePos?.[0] ? ` at line ${yamlError.linePos[0].line}` : '';
    throw new ConfigError(`${source}: not valid YAML${where}: ${yamlError.message.split('\n')[0]}`);
  }
  const value: unknown = doc.toJS();
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ConfigError(`${source}: the file must hold a mapping of settings (test, setup, paths, ...)`);
  }
  return validateRepoConfig(value, source);
}
