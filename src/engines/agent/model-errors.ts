// What a failed model call means for the run: a wrong key, model or URL is the operator's to fix
// (the run stops with that message); anything else ends this engine's attempt.
import { EngineError } from '../engine-error.ts';
import type { ChatModel } from './chat-model.ts';

/** Both SDKs' API errors carry the HTTP status; connection errors and aborts carry none. */
export function modelCallError(error: unknown, model: ChatModel, baseURL: string | undefined): EngineError {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  const who = `${model.provider} (${model.model}${baseURL ? ` at ${baseURL}` : ''})`;
  if (status === 401 || status === 403)
    return new EngineError(
      'ENGINE_MISCONFIGURED',
      `the model provider ${who} refused the key (${status}): check the API key in the app's environment`,
    );
  if (status === 404)
    return new EngineError(
      'ENGINE_MISCONFIGURED',
      `the model provider ${who} answered 404: check FIXLOOP_MODEL and the base URL`,
    );
  if (typeof status === 'number')
    return new EngineError('ENGINE_FAILED', `the model provider ${who} answered ${status}: ${firstLine(message)}`);
  return new EngineError('ENGINE_FAILED', `the model provider ${who} could not be reached: ${firstLine(message)}`);
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}
