// GitHub's collaborator-permission answer as the forge port's role (src/forge/permission.ts).
import { PERMISSION_ORDER, type Permission } from '../forge/permission.ts';

/** `role_name` is the precise role, `permission` the legacy one; GitHub says `maintainer` for `maintain` in places. */
export function permissionOf(answer: { permission?: string | null; role_name?: string | null }): Permission {
  for (const value of [answer.role_name, answer.permission]) {
    const normalized = value === 'maintainer' ? 'maintain' : value;
    if (normalized && (PERMISSION_ORDER as readonly string[]).includes(normalized)) return normalized as Permission;
  }
  return 'none';
}
