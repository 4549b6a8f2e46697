// The reminder that a long phase is still running: "still in setup (60 s into the run)", told no
// more than HEARTBEAT_MS after the run last said anything of its own. It was a 10 s tick that
// checked for 30 s of silence, so a progress line just after a tick was reminded of 39.x s later
// (measured: gaps of up to 40 s). Now one timer is armed for each thing said, due a little before
// the bound, so a timer late by up to SLACK_MS on a loaded machine still keeps it.
import type { RunProgress } from './progress.ts';

/** A long phase is reminded of at least this often. */
export const HEARTBEAT_MS = 30_000;
/** How late a timer may fire, on a loaded machine, with the bound still kept. */
const SLACK_MS = 500;

export interface Heartbeat {
  /**
   * Something was said (an engine's own lines and the heartbeat itself too): silence starts again.
   * A candidate count is not: a log, unlike a terminal, shows it only every 30 s.
   */
  said(progress: RunProgress): void;
  stop(): void;
}

/** `remind` gets the last thing said, each time HEARTBEAT_MS − SLACK_MS passed with nothing else said. */
export function createHeartbeat(remind: (last: RunProgress) => void): Heartbeat {
  let last: RunProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (last && !stopped) remind(last);
    }, HEARTBEAT_MS - SLACK_MS);
    // A reminder never keeps the process alive.
    timer.unref?.();
  };
  return {
    said(progress) {
      if (stopped || progress.candidates) return;
      if (progress.phase !== 'engine') last = progress;
      arm();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
