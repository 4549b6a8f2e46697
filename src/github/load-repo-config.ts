// `.github/fixloop.yml` from the default branch through Probot's config loader (never from a pull
// request's head, which the requester controls), validated by the CLI's schema.
import type { Context } from 'probot';
import { ConfigError } from '../config/config-error.ts';
import { validateRepoConfig } from '../config/parse-config.ts';
import type { RepoConfig } from '../core/repo-config.ts';

export const CONFIG_FILE = 'fixloop.yml';

export type LoadedConfig = { ok: true; config: RepoConfig } | { ok: false; message: string };

export async function loadRepoConfig(context: Pick<Context, 'config'>): Promise<LoadedConfig> {
  try {
    const raw = await context.config<Record<string, unknown>>(CONFIG_FILE);
    return { ok: true, config: validateRepoConfig(raw ?? {}, `.github/${CONFIG_FILE}`) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, message: error.message };
    // The loader says "could not be parsed" for the user's YAML; anything else (GitHub down) is not the user's file.
    if (error instanceof Error && /could not be parsed/.test(error.message)) {
      const reason =
        error.cause instanceof Error
          ? `: ${error.cause.message.split('\n')[0]}`
          : (/\(([^)]*)\)\s*$/.exec(error.message)?.[1] ?? '');
      return {
        ok: false,
        message: `.github/${CONFIG_FILE}: not valid YAML${reason.startsWith(':') ? reason : reason ? ` (${reason})` : ''}`,
      };
    }
    throw error;
  }
}
