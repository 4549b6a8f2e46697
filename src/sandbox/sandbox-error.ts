export type SandboxErrorCode = 'CWD_MISSING' | 'SPAWN_FAILED';

export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  constructor(code: SandboxErrorCode, message: string) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
  }
}
