// A finding: a reason a change is rejected or a run is not green, named for people (DESIGN.md §3.2).

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
  | 'runner_changed'
  | 'harness_tampering';

export interface Finding {
  kind: FindingKind;
  message: string;
  path?: string;
}
