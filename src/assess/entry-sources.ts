// What the entry-point finders read of the repository (src/assess/entry-points.ts builds it
// over the probed checkout).

export interface EntrySources {
  /** A repository file's text (null when absent). */
  read: (path: string) => Promise<string | null>;
  /** The repository's test files (paths from its root). */
  testFiles: () => Promise<string[]>;
  /**
   * The repository's source files the given test files import, `levels` deep, in the order found,
   * leaving out test files and the files a version changes (those are probed where they changed).
   */
  imported: (testFiles: readonly string[], levels: number) => Promise<string[]>;
}
