// A repository's identity for its daily LLM budget: host and path of its URL without credentials,
// scheme or `.git`, so every run of the same repository shares one day's spend.
export function repositoryKey(cloneUrl: string): string {
  if (URL.canParse(cloneUrl) && /^[a-z+]+:\/\//i.test(cloneUrl)) {
    const url = new URL(cloneUrl);
    return `${url.host}${url.pathname}`.replace(/\.git$/, '').replace(/\/+$/, '').toLowerCase();
  }
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(cloneUrl);
  if (scp) return `${scp[1]}/${scp[2]}`.replace(/\.git$/, '').toLowerCase();
  return cloneUrl.replace(/\/+$/, '');
}
