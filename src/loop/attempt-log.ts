// Collects one attempt's log lines (engine output, the loop's notes, the gate's output).
export class AttemptLog {
  private readonly lines: string[] = [];
  private readonly onLine: ((line: string) => void) | undefined;

  constructor(onLine?: (line: string) => void) {
    this.onLine = onLine;
  }

  add = (line: string): void => {
    this.lines.push(line);
    this.onLine?.(line);
  };

  section(title: string, body: string): void {
    this.lines.push(`==== ${title} ====`, body.replace(/\n$/, ''));
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
