// Typed errors with stable codes at each stage's boundary (docs/design.md §5): people read the message,
// logs and exit codes use the code.
export class CodedError<Code extends string = string> extends Error {
  readonly code: Code;
  constructor(code: Code, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}
