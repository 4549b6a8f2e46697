// Finds and reads a repository's fixloop configuration file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultRepoConfig, type RepoConfig } from '../core/repo-config.ts';
import { parseRepoConfig } from './parse-config.ts';

/**
 * Looked up in this order; the first that exists wins. The dotfile is the habit of tool settings
 * (`.eslintrc`, `.prettierrc`, `.pre-commit-config.yaml`): a repository that writes it is not ignored.
 */
export const CONFIG_FILE_NAMES = [
  'fixloop.yml',
  'fixloop.yaml',
  '.fixloop.yml',
  '.fixloop.yaml',
  '.github/fixloop.yml',
  '.github/fixloop.yaml',
];

export interface LoadedConfig {
  config: RepoConfig;
  /** The file the configuration came from, or null when none exists (defaults apply). */
  file: string | null;
}

export async function loadConfigFile(dir: string): Promise<LoadedConfig> {
  for (const name of CONFIG_FILE_NAMES) {
    let text: string;
    try {
      text = await readFile(join(dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    return { config: parseRepoConfig(text, name), file: name };
  }
  return { config: defaultRepoConfig(), file: null };
}
