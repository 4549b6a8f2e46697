// How far an engine's validation of candidates is: a contract of the engines and the run's progress
// (and so of the library's `onProgress`), kept here so the published types need nothing of an engine.

/** "candidate 37/300, 1 plausible". */
export interface CandidateCount {
  /** Candidates validated so far in this attempt. */
  validated: number;
  /** Candidates to validate in this attempt. */
  total: number;
  /** Of them, the ones that passed the tests. */
  plausible: number;
}
