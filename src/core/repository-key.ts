// A repository's identity for its daily LLM budget: host and path of its URL without credentials,
// scheme, trailing slashes or `.git`, so every run of the same repository shares one day's spend.
// Host names are case-insensitive, paths on a local file system are not.
export function repositoryKey(cloneUrl: string): string {
  const bare = (path: string) => path.replace(/\/+$/, '').replace(/\.git$/, '');
  if (/^file:\/\//i.test(cloneUrl) && URL.canParse(cloneUrl)) return bare(decodeURIComponent(new URL(cloneUrl).pathname));
  if (URL.canParse(cloneUrl) && /^[a-z+]+:\/\//i.test(cloneUrl)) {
    const url = new URL(cloneUrl);
    return bare(`${url.host}${url.pathname}`).toLowerCase();
  }
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(cloneUrl);
  if (scp) return bare(`${scp[1]}/${scp[2]}`).toLowerCase();
  return bare(cloneUrl);
}
