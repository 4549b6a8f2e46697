// Who may ask (docs/design.md §3.1.3): the requester's role on the repository must reach the configured
// minimum. The roles are a ladder every forge maps its own onto (GitHub's repository roles are the
// same names; a GitLab adapter would map guest → read, reporter → triage, developer → write,
// maintainer → maintain, owner → admin); the adapter does the mapping (src/github/permission-of.ts).

export const PERMISSION_ORDER = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Permission = (typeof PERMISSION_ORDER)[number];

export function reaches(actual: Permission, minimum: Permission): boolean {
  return PERMISSION_ORDER.indexOf(actual) >= PERMISSION_ORDER.indexOf(minimum);
}
