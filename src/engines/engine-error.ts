export type EngineErrorCode = 'ENGINE_UNKNOWN' | 'ENGINE_MISCONFIGURED' | 'ENGINE_FAILED';

/** An engine could not run at all (as opposed to running and not fixing anything). */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}
