// What of the operator's machine a run's commands see, for the report and `--json`: the toolchains
// they resolve on the user's PATH, the Node, npm and Python that run them with their versions, the
// versions the repository pins that those do not satisfy, and the package settings passed.
import type { RunEnvironment } from '../core/run-result.ts';
import type { Sandbox, SandboxDescription } from '../sandbox/sandbox.ts';
import { measureToolVersions, toolsFor, type ToolVersion } from '../sandbox/tool-versions.ts';
import { readVersionPins, versionMismatches } from '../sandbox/version-pins.ts';

type Toolchains = RunEnvironment['toolchains'];

/** The described toolchains with the measured versions, and the measured tools the description lacks (a docker image's). */
function withVersions(described: SandboxDescription | undefined, measured: ToolVersion[]): Toolchains {
  const toolchains: Toolchains = (described?.toolchains ?? []).map((t) => ({
    name: t.name,
    kind: t.kind,
    prefix: t.prefix,
    bound: t.bound.length > 0,
  }));
  for (const tool of measured) {
    const known = toolchains.find((t) => t.name === tool.name);
    const facts = { path: tool.path, ...(tool.version ? { version: tool.version } : {}) };
    if (known) Object.assign(known, facts);
    else
      toolchains.push({
        name: tool.name,
        kind: 'sandbox',
        prefix: tool.path.replace(/\/(s?bin\/)?[^/]+$/, '') || '/',
        bound: false,
        ...facts,
      });
  }
  return toolchains;
}

/**
 * Asks the sandbox what it shows and passes to these commands, and the tools of the project's
 * language(s) their versions (in `root`, the checkout, as the tests will run); reads the repository's pins there.
 * Null when there is nothing to say (a sandbox made without the operator's machine, and no tool found).
 */
export async function describeRunEnvironment(
  sandbox: Sandbox,
  commands: string[],
  root: string,
  signal?: AbortSignal,
): Promise<RunEnvironment | null> {
  const described = sandbox.describe?.(commands.filter(Boolean));
  const measured = await measureToolVersions(sandbox, root, signal, toolsFor(root, commands));
  const toolchains = withVersions(described, measured);
  const { npmKeys = [], pipKeys = [], passedVariables = [] } = described?.packageSettings ?? {};
  const packageSettings = [...npmKeys.map((k) => `npm ${k}`), ...pipKeys.map((k) => `pip ${k}`), ...passedVariables];
  if (toolchains.length === 0 && packageSettings.length === 0) return null;
  const mismatches = versionMismatches(readVersionPins(root), measured);
  return { toolchains, packageSettings, ...(mismatches.length > 0 ? { versionMismatches: mismatches } : {}) };
}
