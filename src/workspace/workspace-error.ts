export type WorkspaceErrorCode = 'REPO_NOT_FOUND' | 'CLONE_FAILED' | 'REF_NOT_FOUND' | 'PATCH_DOES_NOT_APPLY' | 'APPLY_CONFLICT' | 'GIT_FAILED';

export class WorkspaceError extends Error {
  readonly code: WorkspaceErrorCode;
  constructor(code: WorkspaceErrorCode, message: string) {
    super(message);
    this.name = 'WorkspaceError';
    this.code = code;
  }
}
