import { CodedError } from '../core/coded-error.ts';

export type EngineErrorCode = 'ENGINE_UNKNOWN' | 'ENGINE_MISCONFIGURED' | 'ENGINE_FAILED';

/** An engine could not run at all (as opposed to running and not fixing anything). */
export class EngineError extends CodedError<EngineErrorCode> {}
