// What one sandbox shows and passes of the operator's machine, made once when the sandbox is made
// (select-sandbox.ts): the toolchains the commands resolve on the server's PATH and the package
// managers' settings. Each command gets the standard interpreters' toolchains and those of the
// programs it names (looked up once per name, then remembered), so a repository's `tox` or `pnpm`
// works in the App too, where the commands are known only per run.
import { delimiter, dirname } from 'node:path';
import { bindGuardFrom, isUnder } from './bind-guard.ts';
import { packageSettingsFor, type PackageSettings } from './package-settings.ts';
import type { SandboxDescription } from './sandbox.ts';
import { programsOf, resolveToolchain, type Toolchain, type ToolchainHost } from './toolchains.ts';

export interface HostViewOptions {
  /** The server's environment: its PATH, PYENV_*, VIRTUAL_ENV, npm and pip settings, CA and proxy variables. */
  env: NodeJS.ProcessEnv;
  /** Folders the sandbox puts first on its PATH (Node's own bin folder, FIXLOOP_SANDBOX_BIND): looked in first here too. */
  leading?: string[];
  /** Command lines known when the sandbox is made (setup, test): their programs are resolved at once. */
  commands?: string[];
  /** Where pyenv would look for a .python-version here (default: the process's). */
  cwd?: string;
}

/** What one command gets. */
export interface CommandView {
  toolchains: Toolchain[];
  /** Host files and folders to show read-only (toolchain prefixes, the package settings and CA files). */
  readOnly: string[];
  links: Array<{ path: string; target: string }>;
  env: Record<string, string>;
  /** Folders shown for toolchains: their entries of the server's PATH stay on the sandbox's. */
  visible: string[];
}

export interface HostView {
  /** The server's PATH, whose order the sandbox's keeps. */
  path: string;
  /** fixloop's records that a shown folder may hold: covered by an empty folder (bind-guard.ts). */
  covered: string[];
  packages: PackageSettings;
  toolchainsFor(commands: string[]): Toolchain[];
  forCommand(command: string): CommandView;
  describe(backend: string, commands?: string[], bindsToolchains?: boolean): SandboxDescription;
}

function outermost(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((o) => o !== p && isUnder(p, o)));
}

export function createHostView(options: HostViewOptions): HostView {
  const env = options.env;
  const path = env.PATH ?? '';
  const guard = bindGuardFrom(env);
  const host: ToolchainHost = {
    path: [...(options.leading ?? []), path].filter(Boolean).join(delimiter),
    env,
    guard,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  };
  const known = new Map<string, Toolchain | null>();
  const lookup = (name: string): Toolchain | null => {
    if (!known.has(name)) known.set(name, resolveToolchain(name, host));
    return known.get(name) ?? null;
  };
  const baseNames = programsOf(options.commands ?? []);
  for (const name of baseNames) lookup(name);
  const packages = packageSettingsFor(env, guard);

  const toolchainsFor = (commands: string[]): Toolchain[] =>
    [...new Set([...baseNames, ...programsOf(commands)])].map(lookup).filter((t): t is Toolchain => t !== null);

  return {
    path,
    covered: guard.covered,
    packages,
    toolchainsFor,
    forCommand(command) {
      const toolchains = toolchainsFor([command]);
      const dirs = toolchains.flatMap((t) => t.dirs);
      const links = [...new Map(toolchains.flatMap((t) => t.links).map((l) => [l.path, l])).values()];
      // The first toolchain that sets a variable wins: PATH order, as in the operator's shell.
      const toolchainEnv: Record<string, string> = {};
      for (const t of toolchains) for (const [k, v] of Object.entries(t.env)) if (!(k in toolchainEnv)) toolchainEnv[k] = v;
      return {
        toolchains,
        readOnly: outermost([...dirs, ...packages.readOnly]),
        links,
        env: { ...toolchainEnv, ...packages.env },
        visible: [...dirs, ...links.map((l) => dirname(l.path))],
      };
    },
    describe(backend, commands = [], bindsToolchains = true) {
      return {
        backend,
        toolchains: toolchainsFor(commands).map((t) => ({
          name: t.name,
          executable: t.executable,
          realPath: t.realPath,
          prefix: t.prefix,
          kind: t.kind,
          bound: bindsToolchains ? t.dirs : [],
          refused: bindsToolchains ? t.refused : [],
        })),
        packageSettings: {
          npmKeys: packages.npmKeys,
          pipKeys: packages.pipKeys,
          passedVariables: packages.passed,
          dropped: packages.dropped,
          shown: packages.readOnly,
          refused: packages.refused,
        },
      };
    },
  };
}

/** The description of a sandbox made without a host view: nothing of the operator's machine shown or passed. */
export function emptyDescription(backend: string): SandboxDescription {
  return {
    backend,
    toolchains: [],
    packageSettings: { npmKeys: [], pipKeys: [], passedVariables: [], dropped: [], shown: [], refused: [] },
  };
}
