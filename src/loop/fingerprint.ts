// A failure's fingerprint: what stays the same when a run fails the same way twice.
// Two attempts that end with the same fingerprint made no progress (issue: "no progress means stop").
import { createHash } from 'node:crypto';
import type { GateResult } from '../core/gate-result.ts';
import { stripAnsi } from '../formats/strip-ansi.ts';

const ISO_TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;
const CLOCK_TIME = /\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g;
const DURATION = /\b\d+(\.\d+)?\s*(ms|s|sec|secs|seconds|milliseconds|µs|us|ns|m|min)\b/gi;
const PARENTHESIZED_DURATION = /\(\s*\d+(\.\d+)?\s*(ms|s)?\s*\)/g;
const TEMP_PATH = /(\/private)?\/(tmp|var\/folders|var\/tmp)\/[^\s:'")\]]*/g;
const FIXLOOP_DIR = /fixloop-[a-zA-Z0-9]+/g;
const HEX_ADDRESS = /\b0x[0-9a-fA-F]{4,}\b/g;
const PID = /\b(pid|PID)[ =:]+\d+/g;

/** Strips what varies between two runs of the same failure: ANSI codes, times, durations, temp paths, addresses. */
export function normalizeFailureText(text: string, roots: readonly string[] = []): string {
  let out = stripAnsi(text);
  for (const root of roots) if (root) out = out.split(root).join('<root>');
  return out
    .replace(TEMP_PATH, '<tmp>')
    .replace(FIXLOOP_DIR, '<run>')
    .replace(ISO_TIMESTAMP, '<time>')
    .replace(CLOCK_TIME, '<time>')
    .replace(PARENTHESIZED_DURATION, '(<duration>)')
    .replace(DURATION, '<duration>')
    .replace(HEX_ADDRESS, '<addr>')
    .replace(PID, '$1 <pid>')
    .replace(/[ \t]+/g, ' ')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * Fingerprint of a failed gate: the failing tests and their normalized messages when the output
 * was parsed, else the normalized tail of the output. Null for a passed gate.
 */
export function failureFingerprint(gate: GateResult, roots: readonly string[] = []): string | null {
  if (gate.passed) return null;
  const failing = gate.report.tests.filter((t) => t.status === 'failed');
  const basis =
    failing.length > 0
      ? failing
          .map((t) => `${t.id}\n${normalizeFailureText(t.message ?? '', roots)}`)
          .sort()
          .join('\n--\n')
      : `${gate.reason}:${gate.exitCode ?? ''}\n${normalizeFailureText(gate.output, roots).split('\n').slice(-40).join('\n')}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}
