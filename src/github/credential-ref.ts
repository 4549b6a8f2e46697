// The GitHub App's credential reference (RunJobData.credentialRef, EventData.credentialRef): the
// installation and the repository a token is asked for, as JSON. Written and read only here; runs
// stored before the reference existed kept the same two fields, so they read the same (run-job-data.ts).
export interface AppInstallation {
  installationId: number;
  repositoryId: number;
}

export function appCredentialRef(installation: AppInstallation): string {
  return JSON.stringify({ installationId: installation.installationId, repositoryId: installation.repositoryId });
}

/** The installation a reference names; a reference the App did not write (the Action's) names none. */
export function appInstallationOf(ref: string): AppInstallation {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(ref);
  } catch {
    // Not the App's: said below.
  }
  const { installationId, repositoryId } = (parsed ?? {}) as Partial<AppInstallation>;
  if (typeof installationId !== 'number' || typeof repositoryId !== 'number')
    throw new Error(`not a GitHub App installation: \`${ref.slice(0, 80)}\``);
  return { installationId, repositoryId };
}

/** The reference of a GitHub Action's run: the workflow's token, which never leaves the runner. */
export const WORKFLOW_TOKEN_REF = 'github-workflow-token';
