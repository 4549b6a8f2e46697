// The deliveries the App stored that did not end handled (failed, or still waiting or running): they
// started no run, so `fixloop runs` would otherwise not show them, yet each says why in the store.
import type { JobInfo, JobStore } from '../jobs/run-store.ts';

export async function unhandledDeliveries(store: Pick<JobStore, 'list'>, limit: number): Promise<JobInfo[]> {
  return (await store.list(limit, 'event')).filter((delivery) => delivery.state !== 'done');
}

export function deliveriesTable(deliveries: readonly JobInfo[], when: (ms: number | null) => string): string {
  const rows = deliveries.map((d) => [
    d.key.replace(/^event:/, ''),
    d.state,
    when(d.enqueuedAt),
    d.state === 'failed' ? (d.outcome ?? '') : d.progress,
  ]);
  const header = ['DELIVERY', 'STATE', 'RECEIVED (UTC)', 'WHY'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const lines = [header, ...rows].map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
  );
  return `\nDeliveries that started no run (${deliveries.length}):\n${lines.join('\n')}\n`;
}
