// Who may ask (DESIGN.md §3.3): the requester's repository role must reach the configured minimum.

export const PERMISSION_ORDER = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Permission = (typeof PERMISSION_ORDER)[number];

/** GitHub's collaborator-permission answer: `role_name` is the precise role, `permission` the legacy one. */
export function permissionOf(answer: { permission?: string | null; role_name?: string | null }): Permission {
  for (const value of [answer.role_name, answer.permission]) {
    const normalized = value === 'maintainer' ? 'maintain' : value;
    if (normalized && (PERMISSION_ORDER as readonly string[]).includes(normalized)) return normalized as Permission;
  }
  return 'none';
}

export function reaches(actual: Permission, minimum: Permission): boolean {
  return PERMISSION_ORDER.indexOf(actual) >= PERMISSION_ORDER.indexOf(minimum);
}
