// A finding: a reason a change is rejected or a run is not green, named for people (docs/design.md §3.2).

export type FindingKind =
  | 'path_not_allowed'
  | 'path_protected'
  | 'too_many_files'
  | 'too_many_lines'
  | 'new_dependency'
  | 'binary_change'
  | 'test_count_lower'
  | 'test_newly_skipped'
  | 'test_removed'
  | 'pass_to_fail'
  | 'replay_failed'
  | 'write_refused'
  | 'symlink_escape'
  | 'evidence_missing'
  | 'exit_code_disagrees'
  | 'second_observation_failed'
  /** A fixed test passes from its own file but not from a copy of it under another name, its lines moved (src/verify/copied-tests.ts). */
  | 'copy_observation_failed'
  /**
   * A call the patch changed gives its fixed result only under the test runner: made again in a plain
   * process without the tests, the patched program gives the original's result (src/loop/outside-verdict.ts).
   */
  | 'runner_only'
  /** A fixed test still passes with the expected value its body states changed: its pass is no evidence (src/verify/changed-expectations.ts). */
  | 'expectation_ignored'
  | 'runner_changed'
  | 'harness_tampering'
  /** A changed file the harness check cannot read (parse failure, parser overflow, undecodable text, unusual coding cookie): the check fails closed. */
  | 'harness_unreadable'
  /** The runtime guard inside a judged test process saw the code under test touch the runner, the assertions, the tests or the process's end. */
  | 'runtime_tampering'
  /** A judged test process that should have loaded the runtime guard left no complete record: missing evidence. */
  | 'guard_record_missing'
  /**
   * The tests seen inside the replay's test processes and what the runner's output or machine report
   * says of them disagree (a test's outcome, a test only one side names, the counts), where the
   * baseline's did not: one of the witnesses is not what ran.
   */
  | 'evidence_conflict'
  /** A check of a check run (`checks`) still fails on the pristine replay with the patch. */
  | 'check_failed'
  /** The patch adds a comment that silences a check tool (`eslint-disable`, `# noqa`, `@ts-ignore`, `prettier-ignore`). */
  | 'check_silenced'
  /** The patch changes what configures a check tool (its config file, its section or package.json key). */
  | 'check_config_changed'
  /** The tests the patch turned from failing to passing are all flaky: a flaky test's outcome is no fix (docs/design.md §3.2.8). */
  | 'flaky_only';

export interface Finding {
  kind: FindingKind;
  message: string;
  path?: string;
}
