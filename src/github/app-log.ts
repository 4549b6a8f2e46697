// The App's logger: Probot's format (pretty on a terminal, JSON with LOG_FORMAT=json or in
// production), with one difference that docs/github-app.md promises: an error is logged without the
// webhook payload that @octokit/webhooks attaches to it (`error.event`, 40 KB a delivery), and
// without the request or response an Octokit error carries.
import { getTransformStream } from '@probot/pino';
import { pino, type Logger } from 'pino';

export async function appLogger(env: NodeJS.ProcessEnv): Promise<Logger> {
  const logFormat = env.LOG_FORMAT
    ? env.LOG_FORMAT === 'pretty'
      ? 'pretty'
      : 'json'
    : env.NODE_ENV === 'production'
      ? 'json'
      : 'pretty';
  const transform = await getTransformStream({
    logFormat,
    logLevelInString: env.LOG_LEVEL_IN_STRING === 'true',
    ...(env.SENTRY_DSN ? { sentryDsn: env.SENTRY_DSN } : {}),
  });
  // SonicBoom writes like a stream but is not typed as one.
  transform.pipe(pino.destination(1) as unknown as NodeJS.WritableStream);
  return pino(
    { level: env.LOG_LEVEL || 'info', messageKey: env.LOG_MESSAGE_KEY || 'msg', serializers: { err: errorWithoutPayload } },
    transform,
  );
}

export interface LoggedError {
  type: string;
  message: string;
  code?: unknown;
  status?: unknown;
  stack?: string;
  errors?: LoggedError[];
}

/** What a log line may say of an error: its kind, message, code, status and stack; never its data. */
export function errorWithoutPayload(error: unknown): LoggedError | unknown {
  if (!(error instanceof Error)) return error;
  const { code, status } = error as { code?: unknown; status?: unknown };
  const nested = error instanceof AggregateError ? (error.errors as unknown[]) : [];
  return {
    type: error.name,
    message: error.message,
    ...(code !== undefined ? { code } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(error.stack ? { stack: error.stack } : {}),
    ...(nested.length > 0 ? { errors: nested.map((inner) => errorWithoutPayload(inner) as LoggedError) } : {}),
  };
}
