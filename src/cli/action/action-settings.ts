// The action's own settings, from its inputs (action.yml passes each as an environment variable):
// the sandbox, whether setup may reach the network, and the few overrides a workflow may put on top
// of the repository's `.github/fixloop.yml` (both live on the default branch, trusted alike).
import type { ConfigOverrides } from '../../config/apply-overrides.ts';
import { ENGINE_NAMES, type EngineName } from '../../core/repo-config.ts';
import { parseSandboxChoice, type SandboxChoice } from '../../sandbox/select-sandbox.ts';
import { UsageError } from '../usage-error.ts';

export interface ActionSettings {
  sandbox: SandboxChoice;
  setupNetwork: boolean;
  overrides: ConfigOverrides;
}

export function readActionSettings(env: NodeJS.ProcessEnv): ActionSettings {
  const overrides: ConfigOverrides = {};
  const engines = env.FIXLOOP_ENGINE?.trim();
  if (engines) overrides.engines = engineNames(engines);
  const attempts = env.FIXLOOP_MAX_ATTEMPTS?.trim();
  if (attempts) {
    if (!/^\d+$/.test(attempts) || Number(attempts) < 1)
      throw new UsageError(`the \`max-attempts\` input (FIXLOOP_MAX_ATTEMPTS) must be a positive integer (got \`${attempts}\`)`);
    overrides.maxAttempts = Number(attempts);
  }
  return {
    sandbox: parseSandboxChoice(env.FIXLOOP_SANDBOX, 'the `sandbox` input (FIXLOOP_SANDBOX)'),
    // As in the App: setup (e.g. `npm ci`) reaches the network only when asked; tests never do.
    setupNetwork: /^(1|true|yes)$/i.test(env.FIXLOOP_SETUP_NETWORK ?? ''),
    overrides,
  };
}

function engineNames(raw: string): EngineName[] {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.find((n) => !(ENGINE_NAMES as readonly string[]).includes(n));
  if (unknown !== undefined)
    throw new UsageError(
      `the \`engine\` input (FIXLOOP_ENGINE): unknown engine \`${unknown}\`; the engines are: ${ENGINE_NAMES.join(', ')}`,
    );
  return names as EngineName[];
}
