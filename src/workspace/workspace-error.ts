import { CodedError } from '../core/coded-error.ts';

export type WorkspaceErrorCode =
  | 'REPO_NOT_FOUND'
  | 'CLONE_FAILED'
  | 'REF_NOT_FOUND'
  | 'PATCH_DOES_NOT_APPLY'
  | 'APPLY_CONFLICT'
  | 'GIT_FAILED'
  | 'MIRROR_CHANGED';

export class WorkspaceError extends CodedError<WorkspaceErrorCode> {}
