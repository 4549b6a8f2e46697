// The in-process job queue: a concurrency limit, one active job per key, cancellation by abort signal.
// Nothing survives a restart (durable runs are their own stage); a job that throws is logged, never
// allowed to take the process down.
import type { EnqueueResult, Job, JobInfo, JobQueue } from './job-queue.ts';

interface Entry {
  job: Job;
  info: JobInfo;
  controller: AbortController;
}

export interface MemoryQueueOptions {
  concurrency: number;
  onError?: (error: unknown, job: Job) => void;
}

export function createMemoryQueue(options: MemoryQueueOptions): JobQueue {
  const concurrency = Math.max(1, options.concurrency);
  const active = new Map<string, Entry>();
  const waiting: Entry[] = [];
  const idle: Array<() => void> = [];
  let running = 0;

  const settleIfIdle = () => {
    if (running === 0 && waiting.length === 0) for (const resolve of idle.splice(0)) resolve();
  };

  const pump = () => {
    while (running < concurrency) {
      const entry = waiting.shift();
      if (!entry) break;
      running++;
      entry.info.state = 'running';
      entry.info.startedAt = Date.now();
      const control = { signal: entry.controller.signal, report: (p: string) => void (entry.info.progress = p) };
      void Promise.resolve()
        .then(() => entry.job.run(control))
        .catch((error: unknown) => options.onError?.(error, entry.job))
        .finally(() => {
          running--;
          if (active.get(entry.job.key) === entry) active.delete(entry.job.key);
          pump();
          settleIfIdle();
        });
    }
  };

  return {
    enqueue(job): EnqueueResult {
      const existing = active.get(job.key);
      if (existing) return { accepted: false, active: { ...existing.info } };
      const entry: Entry = {
        job,
        controller: new AbortController(),
        info: { key: job.key, runId: job.runId, state: 'queued', enqueuedAt: Date.now(), startedAt: null, actor: job.actor, progress: 'queued' },
      };
      active.set(job.key, entry);
      waiting.push(entry);
      pump();
      return { accepted: true };
    },
    status(key) {
      const entry = active.get(key);
      return entry ? { ...entry.info } : null;
    },
    cancel(key, by) {
      const entry = active.get(key);
      if (!entry) return false;
      entry.controller.abort(new Error(`cancelled by ${by ?? 'someone'}`));
      const index = waiting.indexOf(entry);
      // A queued job never started: it still runs, with an aborted signal, so it can tell its requester.
      if (index >= 0) {
        waiting.splice(index, 1);
        waiting.unshift(entry);
      }
      return true;
    },
    drain() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
