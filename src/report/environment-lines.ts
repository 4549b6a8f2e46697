// The report's lines about the machine the repository's commands ran on: the toolchains (with the
// versions of the Node, npm and Python that ran the tests), the package settings passed, and a
// sentence for each version the repository pins that they do not satisfy.
import type { RunEnvironment, RunResult } from '../core/run-result.ts';

const LANGUAGE = { node: 'Node', python: 'Python' } as const;

/** One sentence per pin not satisfied: "Node v20.20.2 runs the tests; .nvmrc asks for 22". */
export function versionMismatchSentences(environment: RunEnvironment | undefined): string[] {
  return (environment?.versionMismatches ?? []).map((m) =>
    m.version
      ? `${LANGUAGE[m.tool]} ${m.version} runs the tests; ${m.file} asks for ${m.wants}`
      : `\`${m.program} --version\` printed no version (${m.said || 'nothing'}); ${m.file} asks for ${m.wants}`,
  );
}

/** `node` v20.20.2, `npm` 11.19.1, `python3` 3.11.7: the tools that ran the tests, for a progress line. */
export function toolVersionsLine(environment: RunEnvironment | undefined): string | null {
  const measured = (environment?.toolchains ?? []).filter((t) => t.version);
  return measured.length > 0 ? measured.map((t) => `${t.name} ${t.version}`).join(', ') : null;
}

/** The run details' lines: toolchains with their versions and prefixes, and the package settings passed. */
export function environmentLines(result: RunResult): string[] {
  const env = result.environment;
  if (!env) return [];
  const toolchains = env.toolchains.map(
    (t) => `\`${t.name}\`${t.version ? ` ${t.version}` : ''} (${t.kind}, \`${t.prefix}\`${t.bound ? ', shown read-only' : ''})`,
  );
  return [
    ...(toolchains.length ? [`- Toolchains: ${toolchains.join(', ')}`] : []),
    ...(env.packageSettings.length
      ? [`- Package settings passed: ${env.packageSettings.map((k) => `\`${k}\``).join(', ')}`]
      : []),
  ];
}
