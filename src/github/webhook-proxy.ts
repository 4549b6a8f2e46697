// Development only: forwards GitHub's deliveries from a smee.io channel to this server, when the
// operator set WEBHOOK_PROXY_URL and installed smee-client. Never installed or created on their
// behalf (Probot's own proxy runs `npx smee-client` and opens a channel with no one asking).
import type { Logger } from 'pino';

interface SmeeClientModule {
  SmeeClient: new (options: { source: string; target: string; logger: Logger }) => { start(): unknown };
}

export async function startWebhookProxy(source: string, target: string, log: Logger): Promise<{ close(): void } | null> {
  // A name in a variable: smee-client is an optional package, absent from the types and the lockfile.
  const name = 'smee-client';
  const { SmeeClient } = (await import(name)) as SmeeClientModule;
  const events = (await new SmeeClient({ source, target, logger: log.child({ name: 'smee' }) }).start()) as
    { close?: () => void } | undefined;
  log.info({ source, target }, 'forwarding webhooks from WEBHOOK_PROXY_URL');
  return events?.close ? { close: () => events.close?.() } : null;
}
