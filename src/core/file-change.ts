// A file a fix created, modified or deleted, as the workspace detects it and the report shows it.

export type ChangeKind = 'created' | 'modified' | 'deleted';

export interface FileChange {
  /** Repository-relative POSIX path. */
  path: string;
  kind: ChangeKind;
  /** Lines added / removed against the baseline (0 for binary files). */
  added: number;
  removed: number;
  binary: boolean;
  /** Set when the path is now a symlink: where it points (checked so no link leads outside). */
  symlinkTarget?: string;
}
