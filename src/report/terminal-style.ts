// How the terminal report marks things: bold headings, coloured verdicts, code in cyan. One style
// with colour (ANSI escapes through node's util.styleText) and one without, chosen by the CLI from
// the terminal and NO_COLOR / FORCE_COLOR (src/cli/terminal-output.ts); the words are the same.
import { styleText } from 'node:util';

export interface TerminalStyle {
  heading(text: string): string;
  strong(text: string): string;
  code(text: string): string;
  dim(text: string): string;
  good(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
}

const same = (text: string) => text;

export const PLAIN_STYLE: TerminalStyle = {
  heading: same,
  strong: same,
  code: same,
  dim: same,
  good: same,
  bad: same,
  warn: same,
};

/** The caller decided that colour is wanted: the stream is not checked again (validateStream: false). */
const paint = (format: Parameters<typeof styleText>[0]) => (text: string) =>
  text ? styleText(format, text, { validateStream: false }) : text;

export const COLOUR_STYLE: TerminalStyle = {
  heading: paint('bold'),
  strong: paint('bold'),
  code: paint('cyan'),
  dim: paint('dim'),
  good: paint(['bold', 'green']),
  bad: paint(['bold', 'red']),
  warn: paint(['bold', 'yellow']),
};
