/**
 * First start of an installation: the system administrator and the environment "Default".
 * Runs once; later starts find the installation record and change nothing.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '#shared/auth/passwords.ts';
import { isBootstrapped, markBootstrapped } from '#shared/data/installation-repository.ts';
import { createUser } from '#shared/data/user-repository.ts';
import { newId, timestamp } from '#shared/domain/node.ts';
import { type Caller, toPrincipal, type User } from '#shared/domain/user.ts';
import { createNode } from './node-service.ts';

export interface BootstrapResult {
  /** false when the installation was bootstrapped before. */
  created: boolean;
  adminUsername?: string;
  /** Set only when no password was given and one was generated: shown once, stored only as a hash. */
  generatedPassword?: string;
  defaultEnvironmentId?: string;
}

export const MIN_ADMIN_PASSWORD_LENGTH = 12;

export async function bootstrapInstallation(admin: {
  username: string;
  password: string | undefined;
}): Promise<BootstrapResult> {
  if (await isBootstrapped()) return { created: false };
  if (admin.password !== undefined && admin.password.length < MIN_ADMIN_PASSWORD_LENGTH) {
    throw new Error(`ADMIN_PASSWORD must have at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`);
  }
  const generatedPassword = admin.password === undefined ? randomBytes(18).toString('base64url') : undefined;
  const user: User = {
    principalId: newId(),
    username: admin.username,
    name: admin.username,
    firstName: null,
    middleName: null,
    lastName: null,
    phone: null,
    email: null,
    passwordHash: await hashPassword(admin.password ?? (generatedPassword as string)),
    systemAdmin: true,
    status: 'ACTIVE',
    createdAt: timestamp(),
    grants: {},
  };
  await createUser(user);
  const caller: Caller = {
    principal: toPrincipal(user),
    sessionId: 'bootstrap',
    systemAdmin: true,
    grants: {},
  };
  const environment = await createNode(caller, {
    '@type': 'NodeElement',
    nodeType: 'ENVIRONMENT',
    name: 'Default',
  });
  await markBootstrapped({ adminPrincipalId: user.principalId, defaultEnvironmentId: environment.nodeId });
  return {
    created: true,
    adminUsername: user.username,
    ...(generatedPassword ? { generatedPassword } : {}),
    defaultEnvironmentId: environment.nodeId,
  };
}
