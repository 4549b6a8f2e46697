import { CodedError } from '../core/coded-error.ts';

export type SandboxErrorCode = 'CWD_MISSING' | 'SPAWN_FAILED' | 'BACKEND_UNAVAILABLE';

export class SandboxError extends CodedError<SandboxErrorCode> {}
