/**
 * The callers of the access tests: anonymous, a reader and an editor of environment A, the admin of
 * environment B, the admin of environment A, and the system administrator.
 */
import { createNode, defaultEnvironmentId, folder, urlDocument } from './library.ts';
import { ADMIN, type ApiClient } from './test-stack.ts';

export const PERSONAS = [
  'anonymous',
  'reader',
  'editor',
  'otherEnvAdmin',
  'envAdmin',
  'systemAdmin',
] as const;
export type Persona = (typeof PERSONAS)[number];

export const PASSWORD = 'persona-password-123';

export interface World {
  tokens: Record<Persona, string | undefined>;
  principals: Record<Exclude<Persona, 'anonymous'>, string>;
  usernames: Record<Exclude<Persona, 'anonymous'>, string>;
  envA: string;
  envB: string;
  folderA: string;
  documentA: string;
  folderB: string;
}

export async function createUser(api: ApiClient, adminToken: string, username: string) {
  const created = await api.call('POST', '/api/v1/admin/users', {
    token: adminToken,
    body: { username, password: PASSWORD, name: username },
  });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${created.text}`);
  return created.body.principalId as string;
}

export async function grant(
  api: ApiClient,
  adminToken: string,
  nodeId: string,
  principalId: string,
  role: string,
) {
  const granted = await api.call('PUT', `/api/v1/items/${nodeId}/grants/${principalId}`, {
    token: adminToken,
    body: { role },
  });
  if (granted.status !== 200) throw new Error(`grant: ${granted.status} ${granted.text}`);
}

export async function buildWorld(api: ApiClient): Promise<World> {
  const admin = await api.login(ADMIN.username, ADMIN.password);
  const envA = await defaultEnvironmentId(api, admin);
  const envB = (
    await createNode(api, admin, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Environment B' })
  ).nodeId;
  const folderA = (await createNode(api, admin, folder(envA, 'Folder A'))).nodeId;
  const documentA = (await createNode(api, admin, urlDocument(folderA, 'Document A'))).nodeId;
  const folderB = (await createNode(api, admin, folder(envB, 'Folder B'))).nodeId;

  const roles = {
    reader: [envA, 'READER'],
    editor: [envA, 'EDITOR'],
    otherEnvAdmin: [envB, 'ENVIRONMENT_ADMIN'],
    envAdmin: [envA, 'ENVIRONMENT_ADMIN'],
  } as const;
  const principals = {} as World['principals'];
  const usernames = {} as World['usernames'];
  const tokens: World['tokens'] = { anonymous: undefined, systemAdmin: admin } as World['tokens'];
  principals.systemAdmin = JSON.parse(Buffer.from(admin.split('.')[1] as string, 'base64url').toString()).sub;
  usernames.systemAdmin = ADMIN.username;
  for (const [persona, [nodeId, role]] of Object.entries(roles) as [
    keyof typeof roles,
    readonly [string, string],
  ][]) {
    usernames[persona] = `${persona.toLowerCase()}-user`;
    principals[persona] = await createUser(api, admin, usernames[persona]);
    await grant(api, admin, nodeId, principals[persona], role);
    tokens[persona] = await api.login(usernames[persona], PASSWORD);
  }
  return { tokens, principals, usernames, envA, envB, folderA, documentA, folderB };
}
