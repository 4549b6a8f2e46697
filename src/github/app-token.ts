// Installation tokens for git. Asked for through the app's JWT client, whose base URL follows
// GHE_HOST (docs/design.md §6: `octokit.auth({ type: 'installation' })` was seen to call api.github.com on
// GHE with a cold cache), and narrowed to one repository's contents: the token git carries can do
// nothing else.
import type { Probot } from 'probot';

export async function installationTokenFor(app: Probot, installationId: number, repositoryId: number): Promise<string> {
  const appOctokit = await app.auth();
  const { data } = await appOctokit.rest.apps.createInstallationAccessToken({
    installation_id: installationId,
    repository_ids: [repositoryId],
    permissions: { contents: 'write' },
  });
  return data.token;
}
