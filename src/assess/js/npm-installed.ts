// Where npm installs a published package: `node_modules/<name>`, its name as package.json gives it
// (a scope is a folder too). An application (marked private) or a package.json without a valid name
// is not installed by anyone: its checkout is where it runs.
import type { InstalledAt } from '../probe-language.ts';
import { manifestOf } from './npm-packed.ts';

/** npm's rule for a package's name: lower case, URL-safe, an optional scope. */
const NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

export const npmInstalledAt: InstalledAt = async (dir) => {
  const manifest = await manifestOf(dir);
  const name = manifest?.['name'];
  if (!manifest || manifest['private'] === true || typeof name !== 'string' || !NAME.test(name)) return null;
  return `node_modules/${name}`;
};
