import { describe, expect, it } from 'vitest';
import { reaches } from '../../src/forge/permission.ts';
import { permissionOf } from '../../src/github/permission-of.ts';

describe('who may ask', () => {
  it('reads the precise role first, then the legacy permission', () => {
    expect(permissionOf({ permission: 'write', role_name: 'maintain' })).toBe('maintain');
    expect(permissionOf({ permission: 'read', role_name: 'triage' })).toBe('triage');
    expect(permissionOf({ permission: 'admin' })).toBe('admin');
    expect(permissionOf({ permission: 'none', role_name: null })).toBe('none');
    expect(permissionOf({ role_name: 'custom-role', permission: 'write' })).toBe('write');
    expect(permissionOf({})).toBe('none');
  });

  it('orders roles from none to admin', () => {
    expect(reaches('write', 'write')).toBe(true);
    expect(reaches('admin', 'write')).toBe(true);
    expect(reaches('triage', 'write')).toBe(false);
    expect(reaches('read', 'triage')).toBe(false);
    expect(reaches('none', 'read')).toBe(false);
  });
});
