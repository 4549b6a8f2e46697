// A repository's identity for its daily LLM budget: every spelling of one repository's URL gives one
// key, without credentials, scheme, `.git` or a trailing slash; a local path stays as it is.
import { describe, expect, it } from 'vitest';
import { repositoryKey } from '../../src/core/repository-key.ts';

describe('repositoryKey', () => {
  it('drops the scheme, credentials and `.git` of an https URL, and lower-cases it', () => {
    expect(repositoryKey('https://x-access-token:ghs_secret123@GitHub.com/Acme/Shop.git')).toBe('github.com/acme/shop');
    expect(repositoryKey('https://user@github.com/acme/shop')).toBe('github.com/acme/shop');
    expect(repositoryKey('http://github.com/acme/shop.git')).toBe('github.com/acme/shop');
  });

  it('never keeps a token', () => {
    expect(repositoryKey('https://oauth2:glpat-TOKEN@gitlab.example.com/group/sub/project.git')).toBe(
      'gitlab.example.com/group/sub/project',
    );
  });

  it('drops trailing slashes', () => {
    expect(repositoryKey('https://github.com/acme/shop/')).toBe('github.com/acme/shop');
    expect(repositoryKey('https://github.com/acme/shop//')).toBe('github.com/acme/shop');
  });

  it('keeps a port, which names another server', () => {
    expect(repositoryKey('https://ghe.example.com:8443/Acme/Shop.git')).toBe('ghe.example.com:8443/acme/shop');
  });

  it('reads the ssh scp form and the ssh URL form', () => {
    expect(repositoryKey('git@github.com:Acme/Shop.git')).toBe('github.com/acme/shop');
    expect(repositoryKey('git@github.com:acme/shop')).toBe('github.com/acme/shop');
    expect(repositoryKey('ssh://git@github.com/acme/shop.git')).toBe('github.com/acme/shop');
    expect(repositoryKey('ssh://git@github.com:2222/acme/shop.git')).toBe('github.com:2222/acme/shop');
  });

  it('gives one key to every spelling of the same repository', () => {
    const spellings = [
      'https://github.com/acme/shop',
      'https://github.com/acme/shop.git',
      'https://x-access-token:abc@github.com/ACME/shop.git',
      'https://github.com/acme/shop/',
      'git@github.com:acme/shop.git',
      'ssh://git@github.com/acme/shop',
    ];
    expect(new Set(spellings.map(repositoryKey))).toEqual(new Set(['github.com/acme/shop']));
  });

  it('keeps a local path as it is, case included, without a trailing slash or `.git`', () => {
    expect(repositoryKey('/home/dev/My Repo')).toBe('/home/dev/My Repo');
    expect(repositoryKey('/home/dev/My Repo/')).toBe('/home/dev/My Repo');
    expect(repositoryKey('/srv/git/Shop.git')).toBe('/srv/git/Shop');
    // The same repository by file URL: the same key.
    expect(repositoryKey('file:///srv/git/Shop.git')).toBe('/srv/git/Shop');
    expect(repositoryKey('https://github.com/acme/shop.git/')).toBe('github.com/acme/shop');
    expect(repositoryKey('git@github.com:acme/shop.git/')).toBe('github.com/acme/shop');
    expect(repositoryKey('relative/Project')).toBe('relative/Project');
  });
});
