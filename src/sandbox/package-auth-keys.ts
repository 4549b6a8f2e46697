// Which package-manager settings are credentials, and which of those the operator chose to pass
// anyway (FIXLOOP_PACKAGE_AUTH_KEYS). The repository's code runs where these settings are handed
// over, so a token, a password or a URL with a user in it is left out unless named there.

export interface PackageAuthKeys {
  /** npm (and pnpm) keys, e.g. `//registry.example.com/:_authToken`. */
  npm: Set<string>;
  /** pip keys (`pip:<key>` in the setting), e.g. `index-url` when its URL carries a password. */
  pip: Set<string>;
  /** Environment variables (`env:<NAME>`), e.g. `HTTPS_PROXY` when it carries a password. */
  env: Set<string>;
}

/** FIXLOOP_PACKAGE_AUTH_KEYS: comma- or space-separated; `pip:` and `env:` prefixes, npm keys otherwise. */
export function packageAuthKeysFrom(env: NodeJS.ProcessEnv): PackageAuthKeys {
  const keys: PackageAuthKeys = { npm: new Set(), pip: new Set(), env: new Set() };
  for (const entry of (env.FIXLOOP_PACKAGE_AUTH_KEYS ?? '').split(/[\s,]+/).filter(Boolean)) {
    if (entry.startsWith('pip:')) keys.pip.add(entry.slice(4));
    else if (entry.startsWith('env:')) keys.env.add(entry.slice(4));
    else keys.npm.add(entry);
  }
  return keys;
}

/** A URL with a user (and maybe a password) in it: `https://user:secret@host/`. */
export function hasUrlCredentials(value: string): boolean {
  return /(^|\s)[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i.test(value);
}

/** npm keys that hold or point to credentials: any `//host/:` scoped key, tokens, passwords, client keys. */
export function isNpmCredentialKey(key: string): boolean {
  return (
    key.startsWith('//') ||
    /(^|:)(_authToken|_auth|_password|password|username|email|token|otp|certfile|keyfile|key|cert)$/.test(key)
  );
}
