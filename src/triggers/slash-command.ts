// `/fix` in a comment: the sub-commands, free-text instructions, and what is not a command at all.

export type SlashCommand =
  | { kind: 'fix'; instructions: string }
  | { kind: 'retry' }
  | { kind: 'cancel' }
  | { kind: 'status' }
  | { kind: 'help'; unknown?: string };

const SUB_COMMANDS = ['retry', 'cancel', 'status', 'help'] as const;

/**
 * Reads the command from a comment body. Only a comment whose first non-empty line starts with the
 * command counts (a quote or a mention further down does not start a run). A single word that is
 * not a sub-command is taken as a mistyped sub-command and answered with the help text; anything
 * longer is free-text instructions.
 */
export function parseSlashCommand(body: string, command: string): SlashCommand | null {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0) return null;
  const head = (lines[first] ?? '').trim();
  if (head !== command && !head.startsWith(`${command} `) && !head.startsWith(`${command}\t`)) return null;
  const rest = [head.slice(command.length), ...lines.slice(first + 1)].join('\n').trim();
  if (rest === '') return { kind: 'fix', instructions: '' };
  const word = rest.toLowerCase();
  if ((SUB_COMMANDS as readonly string[]).includes(word)) return { kind: word as (typeof SUB_COMMANDS)[number] } as SlashCommand;
  if (/^[a-z][a-z-]*$/i.test(rest)) return { kind: 'help', unknown: rest };
  return { kind: 'fix', instructions: rest };
}

export function helpText(command: string, label: string): string {
  return [
    `**fixloop** turns failing tests green and proves it. Commands (need write access by default):`,
    '',
    `- \`${command}\` — run the fix loop on this issue or pull request`,
    `- \`${command} <instructions>\` — the same, with instructions for the engines (e.g. \`${command} the discount must apply from 100 on\`)`,
    `- \`${command} retry\` — run again with the last instructions`,
    `- \`${command} status\` — what the current run is doing`,
    `- \`${command} cancel\` — stop the current run`,
    `- \`${command} help\` — this text`,
    '',
    `Labeling an issue \`${label}\` starts a run too. Configuration: \`.github/fixloop.yml\` on the default branch.`,
  ].join('\n');
}
