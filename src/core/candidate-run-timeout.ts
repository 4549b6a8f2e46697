// How long one candidate patch's test run may take: a mutation can make code loop forever, so a few
// times the time of a run that passed (the suite's, or the patch's own), no more. The `repair`
// engine's validation and the assessment's search for rivals bound their runs alike.
export function candidateRunTimeout(suiteMs: number, testTimeoutMs: number): number {
  return Math.min(testTimeoutMs, Math.max(3000, suiteMs * 5 + 1000));
}
