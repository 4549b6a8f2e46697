// Anything that looks like a credential is redacted from what fixloop writes or prints (docs/design.md §3.1.2).
const PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens (installation tokens are ghs_...)
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(ant-)?[A-Za-z0-9_-]{20,}\b/g, // OpenAI / Anthropic style keys
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /(Authorization:\s*(Basic|Bearer|token)\s+)[A-Za-z0-9+/=._-]+/gi,
  /(https?:\/\/)[^/\s:@]+:[^/\s@]+@/g, // credentials in URLs
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match, prefix: unknown) =>
      typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]',
    );
  }
  return out;
}
