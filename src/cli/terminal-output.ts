// What the CLI's output streams are: a terminal or not, and whether it takes colour. A report on a
// terminal is text (render-terminal.ts), elsewhere the Markdown that --out and the App write. Colour
// follows the conventions: NO_COLOR (any value) turns it off, FORCE_COLOR turns it on (0 or false
// off), otherwise the terminal says whether it has colours (TERM=dumb does not).
export interface TerminalOutput {
  stdoutTty: boolean;
  stderrTty: boolean;
  colour: boolean;
}

interface Stream {
  isTTY?: boolean;
  hasColors?: (env?: Record<string, string | undefined>) => boolean;
}

export function terminalOutput(stdout: Stream, stderr: Stream, env: Record<string, string | undefined>): TerminalOutput {
  const stdoutTty = stdout.isTTY === true;
  return { stdoutTty, stderrTty: stderr.isTTY === true, colour: stdoutTty && wantsColour(stdout, env) };
}

function wantsColour(stream: Stream, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR);
  return stream.hasColors?.(env) ?? false;
}
