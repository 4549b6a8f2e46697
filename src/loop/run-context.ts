// What every step of one run shares: the request, its deps, the result being built, the events,
// the artifacts and the scratch folder, and how the run ends (duration, headline, progress told; the
// report is rendered once after that, by local-run.ts).
import type { RunEvent, RunResult } from '../core/run-result.ts';
import type { FixRequest } from '../core/fix-request.ts';
import type { Artifacts } from './artifacts.ts';
import { headlineFor } from './headline.ts';
import type { RunProgress } from './progress.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { Reviewer } from '../core/reviewer.ts';
import type { EngineEnvironment } from '../engines/create-engines.ts';
import type { AlternativeCandidate, Engine, EngineOutcome } from '../engines/engine.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { ProgressListener } from './progress.ts';
import { createHeartbeat } from './heartbeat.ts';

/** What the caller (the CLI, the App's run job, the library, `fixloop replay`) gives a run. */
export interface RunFixDeps {
  sandbox: Sandbox;
  /** The run's artifacts go to `<artifactsRoot>/<runId>/` unless `artifactsDir` names the exact directory. */
  artifactsRoot: string;
  artifactsDir?: string;
  auth?: CloneAuth;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  tmpRoot?: string;
  /** Setup commands may reach the network (never the tests): the app's setting, not the repository's. */
  setupNetwork?: boolean;
  /** Engines by name; defaults to the built-in ones. */
  createEngines?: (config: RepoConfig) => Promise<Engine[]>;
  /** With `createEngines`: the reviewer to use (tests). */
  reviewer?: Reviewer | null;
  /** Where dependency caches live (one folder per repository); none when unset. */
  cacheDir?: string;
  /** The app's environment for LLM engines (models, keys, ceilings) and the daily spend ledger; defaults to process.env and a ledger in memory. */
  engineEnvironment?: EngineEnvironment;
}

/**
 * What every run of this process gets, whoever starts it (the App's run lane, the Action, a worker):
 * the sandbox, where artifacts and scratch folders go (the scratch root is required: a run job clones
 * and publishes there too), the dependency caches, whether setup reaches the network, the engines
 * and their environment. Passed whole through the layers; each run adds its own `auth`, `signal`
 * and `onProgress`.
 */
export type SharedRunDeps = Pick<
  RunFixDeps,
  'sandbox' | 'artifactsRoot' | 'cacheDir' | 'setupNetwork' | 'createEngines' | 'engineEnvironment'
> &
  Required<Pick<RunFixDeps, 'tmpRoot'>>;

export interface RunContext {
  request: FixRequest;
  deps: RunFixDeps;
  /** The result as known so far; each step fills in its part. */
  base: RunResult;
  artifacts: Artifacts;
  /** A folder of the run's own (workspace, mirror, replays), removed at the end. */
  scratch: string;
  signal: AbortSignal;
  /** Epoch milliseconds when the run started. */
  started: number;
  note(kind: string, message: string): void;
  progress(p: RunProgress): void;
  /** Ends the run: its duration and headline, the heartbeat stopped, `done` told. */
  finish(result: RunResult): RunResult;
  /**
   * What the green attempt's engine chose among the candidates that passed the tests, and the others
   * (whole patches against the pristine commit, as the run's patch is): filled by `fixAndVerify`
   * after a green fix loop, empty otherwise, for `runLocal` to read.
   */
  candidates: RunCandidates;
}

/** The chosen candidate of a green run and the alternatives it was preferred to. */
export interface RunCandidates {
  chosen?: NonNullable<EngineOutcome['chosen']>;
  alternatives: AlternativeCandidate[];
}

function phaseWords(p: RunProgress): string {
  if (p.phase === 'attempt' && p.attempt !== undefined) return `in attempt ${p.attempt}/${p.maxAttempts ?? '?'}`;
  if (p.phase === 'verify') return 'verifying on a pristine checkout';
  if (p.phase === 'assess') return 'looking for what else the patch changed';
  return `in ${p.phase}`;
}

export function createRunContext(
  request: FixRequest,
  deps: RunFixDeps,
  fields: { base: RunResult; artifacts: Artifacts; scratch: string; events: RunEvent[]; started: number },
): RunContext {
  const note = (kind: string, message: string) => fields.events.push({ at: new Date().toISOString(), kind, message });
  // A phase that says nothing for 30 s (a long setup, a silent engine) is reminded of, so a person
  // watching knows the run is alive and where it is. Whatever is said (an engine's lines too) starts
  // the silence again: a terminal never goes 30 s without a line.
  const beat = createHeartbeat((last) => {
    const { phase, attempt, maxAttempts } = last;
    const elapsed = Math.round((Date.now() - fields.started) / 1000);
    progress({
      phase,
      ...(attempt !== undefined ? { attempt } : {}),
      ...(maxAttempts !== undefined ? { maxAttempts } : {}),
      heartbeat: true,
      message: `still ${phaseWords(last)} (${elapsed} s into the run)`,
    });
  });
  const progress = (p: RunProgress) => {
    if (p.phase !== 'engine' && !p.heartbeat) note(p.phase, p.message);
    beat.said(p);
    deps.onProgress?.(p);
  };
  return {
    request,
    deps,
    base: fields.base,
    artifacts: fields.artifacts,
    scratch: fields.scratch,
    signal: deps.signal ?? new AbortController().signal,
    started: fields.started,
    candidates: { alternatives: [] },
    note,
    progress,
    finish(result) {
      beat.stop();
      result.durationMs = Date.now() - fields.started;
      result.headline = headlineFor(result);
      progress({ phase: 'done', message: result.headline });
      return result;
    },
  };
}
