// Flag value parsers: each error names the flag and what it expected.
import {
  CLI_AGENTS,
  ENGINE_NAMES,
  EVIDENCE_KINDS,
  type CliAgentName,
  type EngineName,
  type EvidenceKind,
} from '../core/repo-config.ts';
import { UsageError } from './usage-error.ts';

export function positiveInteger(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new UsageError(`${flag} must be a positive integer (got \`${raw}\`)`);
  return Number(raw);
}

export function engineList(raw: string): EngineName[] {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--engine needs a name; the engines are: ${ENGINE_NAMES.join(', ')}`);
  for (const name of names) {
    if (!(ENGINE_NAMES as readonly string[]).includes(name))
      throw new UsageError(`--engine: unknown engine \`${name}\`; the engines are: ${ENGINE_NAMES.join(', ')}`);
  }
  return names as EngineName[];
}

export function cliAgentName(raw: string): CliAgentName {
  const name = raw.trim();
  if (!(CLI_AGENTS as readonly string[]).includes(name))
    throw new UsageError(`--cli-agent: unknown agent \`${raw}\`; the agents are: ${CLI_AGENTS.join(', ')}`);
  return name as CliAgentName;
}

export function evidenceKind(raw: string): EvidenceKind {
  const kind = raw.trim();
  if (!(EVIDENCE_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--evidence: unknown kind \`${raw}\`; the kinds are: ${EVIDENCE_KINDS.join(', ')}`);
  return kind as EvidenceKind;
}

const GIT_URL = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)/;

export function isGitUrl(source: string): boolean {
  return GIT_URL.test(source);
}
