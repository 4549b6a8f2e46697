// Credentials for cloning and pushing: a git HTTP header, never a URL or a file (docs/design.md §3.1.2).

/** Credentials for git over HTTP, passed as a header on the command line of each git call, never stored. */
export interface CloneAuth {
  /** Full header value, e.g. `Authorization: Basic ...`. */
  header: string;
}
