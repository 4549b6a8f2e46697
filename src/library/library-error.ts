// What the library throws: input it refuses before anything runs. A run that happens and fails is
// not thrown; it is an outcome (`status: 'error'`, `'failed_to_green'`, …) with its RunResult.
import { CodedError } from '../core/coded-error.ts';

export type FixloopInputErrorCode =
  /** A required option is absent. */
  | 'MISSING_OPTION'
  /** An option has the wrong type or value. */
  | 'INVALID_OPTION'
  /** An option fixloop does not know (a typo would otherwise be ignored silently). */
  | 'UNKNOWN_OPTION'
  /** `repositoryPath` names no directory. */
  | 'REPOSITORY_NOT_FOUND'
  /** The repository's own fixloop.yml is invalid; the message names the file and the key. */
  | 'CONFIG_INVALID';

export interface InputProblem {
  code: FixloopInputErrorCode;
  /** The option at fault (`testCommand`, `attemptLimit`, `repositoryPath`, …); null for the repository's fixloop.yml. */
  option: string | null;
  message: string;
}

/** Every problem of one call, in one error: the message lists them all, `code` and `option` are the first one's. */
export class FixloopInputError extends CodedError<FixloopInputErrorCode> {
  readonly option: string | null;
  readonly problems: readonly InputProblem[];

  constructor(problems: readonly [InputProblem, ...InputProblem[]]) {
    const [first] = problems;
    super(
      first.code,
      problems.length === 1
        ? `fixloop: ${first.message}`
        : `fixloop: ${problems.length} problems: ${problems.map((p) => p.message).join('; ')}`,
    );
    this.option = first.option;
    this.problems = problems;
  }
}

/** One problem, thrown on its own. */
export function inputError(code: FixloopInputErrorCode, option: string | null, message: string): FixloopInputError {
  return new FixloopInputError([{ code, option, message }]);
}
