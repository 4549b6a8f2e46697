// GitHub Actions workflow commands on stdout (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
// an annotation shows on the workflow run's page without opening the log. Its text is escaped as the
// runner reads it (a `%`, a line break, and in properties `:` and `,`), so a multi-line message stays
// one annotation and no text can start a command of its own.
export function annotation(kind: 'error' | 'warning', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message.trim())}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
