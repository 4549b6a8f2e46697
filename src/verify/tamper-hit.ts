// One place in a patch's added code that reaches the harness (docs/design.md §3.2.3), as the JavaScript
// and Python finders report it; harness-tampering.ts turns hits into findings.

/**
 * Ending the process or its exit status; the runner or assertion library; reading the tests;
 * telling the runner is there (its environment variables, the values it gives others); a value that
 * compares equal to anything, or answers the runner's equality protocol itself.
 */
export type TamperRule =
  'exit' | 'test-framework' | 'reads-tests' | 'detects-runner' | 'equals-anything' | 'own-equality' | 'runner-equality';

export interface TamperHit {
  line: number;
  rule: TamperRule;
  /** What the code does, for people: "calls `process.exit(…)`". */
  what: string;
  /** For reads-tests: the path the code reads or loads, checked against the test files by the caller. */
  target?: string;
}
