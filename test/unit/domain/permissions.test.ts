import { describe, expect, it } from 'vitest';
import { can, type Permission } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';

const caller = (grants: Caller['grants'], systemAdmin = false): Caller => ({
  principal: {
    principalId: 'U',
    username: 'u',
    name: 'U',
    firstName: null,
    middleName: null,
    lastName: null,
    phone: null,
    email: null,
  },
  sessionId: 'S',
  systemAdmin,
  grants,
});
const doc = { nodeId: 'DOC', ancestorIds: ['ENV', 'FOLDER'] };
const ALL: Permission[] = ['read', 'create', 'edit', 'delete', 'publish', 'grant'];
const allowed = (c: Caller, node = doc) => ALL.filter((p) => can(c, node, p));

describe('permissions', () => {
  it('roles granted above an object apply to it', () => {
    expect(allowed(caller({ ENV: 'READER' }))).toEqual(['read']);
    expect(allowed(caller({ FOLDER: 'EDITOR' }))).toEqual(['read', 'create', 'edit']);
    expect(allowed(caller({ ENV: 'ENVIRONMENT_ADMIN' }))).toEqual(ALL);
  });

  it('the strongest role wins when several apply', () => {
    expect(allowed(caller({ ENV: 'READER', FOLDER: 'EDITOR' }))).toEqual(['read', 'create', 'edit']);
  });

  it('roles elsewhere give nothing; system administrators may do everything', () => {
    expect(allowed(caller({ OTHER_ENV: 'ENVIRONMENT_ADMIN' }))).toEqual([]);
    expect(allowed(caller({}, true))).toEqual(ALL);
  });

  it('a role granted on a folder does not reach the environment above it', () => {
    expect(allowed(caller({ FOLDER: 'ENVIRONMENT_ADMIN' }), { nodeId: 'ENV', ancestorIds: [] })).toEqual([]);
  });
});
