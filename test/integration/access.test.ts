/**
 * Every route of the route table, called as every persona, answers the status the permission rules
 * say. A route added without a row here fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDelivery } from '#shared/data/webhook-repository.ts';
import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { ROUTES } from '#shared/http/routes.ts';
import { createNode, createOfType, folder, urlDocument } from './helpers/library.ts';
import {
  buildWorld,
  createUser,
  grant,
  PASSWORD,
  PERSONAS,
  type Persona,
  type World,
} from './helpers/personas.ts';
import { ADMIN, type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let world: World;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  world = await buildWorld(api);
});
afterAll(() => ctx.close());

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** Use this token instead of the persona's own (e.g. a fresh one that may be spent). */
  token?: string;
  /** A body that is not JSON (a BPMN file), with its media type. */
  raw?: { body: string; contentType: string };
}

type Expected = Record<Persona, number>;
const expect6 = (
  anonymous: number,
  reader: number,
  editor: number,
  otherEnvAdmin: number,
  envAdmin: number,
  systemAdmin: number,
): Expected => ({
  anonymous,
  reader,
  editor,
  otherEnvAdmin,
  envAdmin,
  systemAdmin,
});
const ADMIN_ONLY = (ok: number) => expect6(401, 403, 403, 403, 403, ok);
const PUBLIC = (ok: number) => expect6(ok, ok, ok, ok, ok, ok);

const admin = () => world.tokens.systemAdmin as string;
const freshDocument = async () =>
  (await createNode(api, admin(), urlDocument(world.folderA, 'Fresh'))).nodeId;
const freshToken = async (persona: Persona) =>
  persona === 'anonymous'
    ? undefined
    : api.login(world.usernames[persona], persona === 'systemAdmin' ? ADMIN.password : PASSWORD);

/** A new action on document A assigned to `persona`, sent by the system administrator. */
async function actionFor(persona: Exclude<Persona, 'anonymous'>): Promise<string> {
  const created = await api.call('POST', '/api/v1/admin/actions', {
    token: admin(),
    body: {
      actionType: 'REVIEW',
      targetNodeId: world.documentA,
      users: [world.principals[persona]],
      dueDate: '2026-12-01',
    },
  });
  return created.body[0].actionId;
}

/** Login, on either path: every persona with their own password; anonymous with a wrong one. */
const loginRow = (path: string) => ({
  expected: expect6(401, 302, 302, 302, 302, 302),
  call: async (p: Persona): Promise<Call> => ({
    method: 'POST',
    path,
    body:
      p === 'anonymous'
        ? { username: 'nobody', password: 'nothing-at-all' }
        : { username: world.usernames[p], password: p === 'systemAdmin' ? ADMIN.password : PASSWORD },
  }),
});

const MATRIX: Record<string, { expected: Expected; call: (persona: Persona) => Promise<Call> }> = {
  'POST /api/v1/login/local': loginRow('/api/v1/login/local'),
  'POST /login/local': loginRow('/login/local'),
  'POST /api/v1/logout': {
    expected: expect6(401, 204, 204, 204, 204, 204),
    call: async (p) => ({ method: 'POST', path: '/api/v1/logout', token: await freshToken(p) }),
  },
  'POST /api/v1/items': {
    expected: expect6(401, 403, 200, 404, 200, 200),
    call: async () => ({
      method: 'POST',
      path: '/api/v1/items',
      body: urlDocument(world.folderA, 'Created'),
    }),
  },
  'GET /api/v1/items/{nodeId}': {
    expected: expect6(401, 200, 200, 404, 200, 200),
    call: async () => ({ method: 'GET', path: `/api/v1/items/${world.documentA}` }),
  },
  'PUT /api/v1/items/{nodeId}': {
    expected: expect6(401, 403, 200, 404, 200, 200),
    call: async () => {
      const nodeId = await freshDocument();
      const current = await api.call('GET', `/api/v1/items/${nodeId}?detail=true`, { token: admin() });
      return { method: 'PUT', path: `/api/v1/items/${nodeId}`, body: { ...current.body, name: 'Renamed' } };
    },
  },
  'DELETE /api/v1/items/{nodeId}': {
    expected: expect6(401, 403, 403, 404, 200, 200),
    call: async () => ({ method: 'DELETE', path: `/api/v1/items/${await freshDocument()}`, body: {} }),
  },
  'GET /api/v1/list': {
    expected: expect6(401, 200, 200, 200, 200, 200),
    call: async () => ({ method: 'GET', path: '/api/v1/list?nodeType=ENVIRONMENT' }),
  },
  'GET /api/v1/list/{nodeId}': {
    // The children of folder A: readable within environment A only.
    expected: expect6(401, 200, 200, 404, 200, 200),
    call: async () => ({ method: 'GET', path: `/api/v1/list/${world.folderA}` }),
  },
  'GET /api/v1/items/{nodeId}/grants': {
    expected: expect6(401, 403, 403, 404, 200, 200),
    call: async () => ({ method: 'GET', path: `/api/v1/items/${world.folderA}/grants` }),
  },
  'PUT /api/v1/items/{nodeId}/grants/{principalId}': {
    expected: expect6(401, 403, 403, 404, 200, 200),
    call: async () => {
      const target = await createUser(api, admin(), `grantee-${Math.random().toString(36).slice(2, 10)}`);
      return {
        method: 'PUT',
        path: `/api/v1/items/${world.folderA}/grants/${target}`,
        body: { role: 'READER' },
      };
    },
  },
  'DELETE /api/v1/items/{nodeId}/grants/{principalId}': {
    expected: expect6(401, 403, 403, 404, 204, 204),
    call: async () => {
      const target = await createUser(api, admin(), `revokee-${Math.random().toString(36).slice(2, 10)}`);
      await grant(api, admin(), world.folderA, target, 'READER');
      return { method: 'DELETE', path: `/api/v1/items/${world.folderA}/grants/${target}` };
    },
  },
  'GET /api/v1/admin/users': {
    expected: ADMIN_ONLY(200),
    call: async () => ({ method: 'GET', path: '/api/v1/admin/users' }),
  },
  'POST /api/v1/admin/users': {
    expected: ADMIN_ONLY(201),
    call: async () => ({
      method: 'POST',
      path: '/api/v1/admin/users',
      body: { username: `new-${Math.random().toString(36).slice(2, 10)}`, password: PASSWORD },
    }),
  },
  'PATCH /api/v1/admin/users/{principalId}': {
    expected: ADMIN_ONLY(200),
    call: async () => ({
      method: 'PATCH',
      path: `/api/v1/admin/users/${world.principals.reader}`,
      body: { phone: '+1 555 0100' },
    }),
  },
  'GET /api/v1/users/me': {
    // Every user reads their own record.
    expected: expect6(401, 200, 200, 200, 200, 200),
    call: async () => ({ method: 'GET', path: '/api/v1/users/me' }),
  },
  'PUT /api/v1/users/me/password': {
    // Every user may change their own password; here with a wrong old one, which changes nothing.
    expected: expect6(401, 401, 401, 401, 401, 401),
    call: async () => ({
      method: 'PUT',
      path: '/api/v1/users/me/password',
      body: { oldPassword: 'not-it', newPassword: 'another-password-123' },
    }),
  },
  'GET /api/v1/admin/sessions': {
    expected: ADMIN_ONLY(200),
    call: async () => ({ method: 'GET', path: '/api/v1/admin/sessions' }),
  },
  'DELETE /api/v1/admin/sessions/{sessionId}': {
    expected: ADMIN_ONLY(204),
    call: async () => {
      const spare = await api.login(world.usernames.reader, PASSWORD);
      const sid = JSON.parse(Buffer.from(spare.split('.')[1] as string, 'base64url').toString()).sid;
      return { method: 'DELETE', path: `/api/v1/admin/sessions/${sid}` };
    },
  },
  'GET /api/v1/admin/settings': {
    expected: ADMIN_ONLY(200),
    call: async () => ({ method: 'GET', path: '/api/v1/admin/settings' }),
  },
  'PUT /api/v1/admin/settings': {
    expected: ADMIN_ONLY(200),
    call: async () => ({
      method: 'PUT',
      path: '/api/v1/admin/settings',
      body: { SESSION_TIMEOUT: 30, WEBTOKEN_EXPIRES_IN: 1 },
    }),
  },
  'POST /api/v1/admin/actions': {
    expected: expect6(401, 403, 403, 404, 201, 201),
    call: async () => ({
      method: 'POST',
      path: '/api/v1/admin/actions',
      body: {
        actionType: 'TRAINING',
        targetNodeId: world.documentA,
        users: [world.principals.reader],
        dueDate: '2026-12-31',
      },
    }),
  },
  'GET /api/v1/admin/actions/{actionId}': {
    // The assignee (reader), those who may publish the object (admins of environment A) and system administrators.
    expected: expect6(401, 200, 404, 404, 200, 200),
    call: async () => ({ method: 'GET', path: `/api/v1/admin/actions/${await actionFor('reader')}` }),
  },
  'GET /api/v1/users/me/actions': {
    expected: expect6(401, 200, 200, 200, 200, 200),
    call: async () => ({ method: 'GET', path: '/api/v1/users/me/actions' }),
  },
  'POST /api/v1/users/me/actions/{actionId}/done': {
    // Only the assignee completes an action.
    expected: expect6(401, 200, 404, 404, 404, 404),
    call: async () => ({
      method: 'POST',
      path: `/api/v1/users/me/actions/${await actionFor('reader')}/done`,
    }),
  },
  'GET /api/v1/swagger': {
    expected: PUBLIC(301),
    call: async () => ({ method: 'GET', path: '/api/v1/swagger' }),
  },
  'GET /api/v1/swagger/openapi.json': {
    expected: PUBLIC(200),
    call: async () => ({ method: 'GET', path: '/api/v1/swagger/openapi.json' }),
  },
  'GET /api/v1/swagger/{file}': {
    expected: PUBLIC(200),
    call: async () => ({ method: 'GET', path: '/api/v1/swagger/swagger-ui.css' }),
  },
};

// The per-type retrieves answer like retrieve: readers of environment A read its objects.
// Per-type lists show everyone what they may read (perhaps nothing): never a 403.
for (const typed of TYPED_LISTS) {
  MATRIX[`GET /api/v1${typed.path}`] = {
    expected: expect6(401, 200, 200, 200, 200, 200),
    call: async () => ({ method: 'GET', path: `/api/v1${typed.path}` }),
  };
}

/** A new process in environment A with `tasks` tasks in a chain (created by the system administrator). */
async function freshProcess(tasks = 0): Promise<{ processId: string; taskIds: string[]; edgeIds: string[] }> {
  const processId = (await createOfType(api, admin(), world.envA, 'PROCESS')).nodeId;
  if (tasks === 0) return { processId, taskIds: [], edgeIds: [] };
  const added = await api.call('POST', `/api/v1/process/nodes?process=${processId}`, {
    token: admin(),
    body: taskNodes(tasks),
  });
  const diagram = await api.call('GET', `/api/v1/process/processes/${processId}`, { token: admin() });
  return {
    processId,
    taskIds: added.body.map((t: { nodeId: string }) => t.nodeId),
    edgeIds: diagram.body.edges.map((e: { edgeId: string }) => e.edgeId),
  };
}

const PORT = { x: 0, y: 0 };
const taskNodes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    '@type': 'TaskNode',
    nodeType: 'TASK',
    name: `Task ${i}`,
    sequenceNumber: i,
    topLeftX: i * 150,
    topLeftY: 0,
    width: 100,
    height: 80,
    editId: `t${i}`,
    ...(i > 0
      ? {
          edges: [
            {
              sourceNodeId: `t${i - 1}`,
              sourcePortPoint: PORT,
              targetNodeId: `t${i}`,
              targetPortPoint: PORT,
            },
          ],
        }
      : {}),
  }));
const EDITORS = expect6(401, 403, 200, 404, 200, 200);

MATRIX['POST /api/v1/process/nodes'] = {
  expected: EDITORS,
  call: async () => ({
    method: 'POST',
    path: `/api/v1/process/nodes?process=${(await freshProcess()).processId}`,
    body: taskNodes(2),
  }),
};
MATRIX['POST /api/v1/process/processes/{processId}/edges'] = {
  expected: EDITORS,
  call: async () => {
    const { processId, taskIds } = await freshProcess(2);
    return {
      method: 'POST',
      path: `/api/v1/process/processes/${processId}/edges`,
      body: [
        { sourceNodeId: taskIds[1], sourcePortPoint: PORT, targetNodeId: taskIds[0], targetPortPoint: PORT },
      ],
    };
  },
};
MATRIX['DELETE /api/v1/process/processes/{processId}/edges/{edgeId}'] = {
  expected: expect6(401, 403, 204, 404, 204, 204),
  call: async () => {
    const { processId, edgeIds } = await freshProcess(2);
    return { method: 'DELETE', path: `/api/v1/process/processes/${processId}/edges/${edgeIds[0]}` };
  },
};
MATRIX['GET /api/v1/process/processes/{processId}/bpmn'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async () => ({
    method: 'GET',
    path: `/api/v1/process/processes/${(await freshProcess(2)).processId}/bpmn`,
  }),
};
MATRIX['POST /api/v1/process/processes/{processId}/bpmn'] = {
  expected: EDITORS,
  call: async () => {
    const { processId } = await freshProcess(2);
    const exported = await api.call('GET', `/api/v1/process/processes/${processId}/bpmn`, { token: admin() });
    return {
      method: 'POST',
      path: `/api/v1/process/processes/${(await freshProcess()).processId}/bpmn`,
      raw: { body: exported.text, contentType: 'application/xml' },
    };
  },
};

/** A single-chunk upload (the spec's form) by `token`, under a new identifier. */
let uploads = 0;
async function uploadAs(token: string | undefined, identifier = `access-${++uploads}`) {
  const query = new URLSearchParams({
    resumableIdentifier: identifier,
    resumableFilename: 'notes.txt',
    resumableChunkSize: '1',
    resumableChunkNumber: '1',
    resumableTotalSize: '1',
  });
  await api.call('POST', `/upload/?${query}`, {
    ...(token ? { token } : {}),
    rawBody: 'notes',
    headers: { 'content-type': 'text/plain' },
  });
  return { identifier, query };
}
const ANY_USER = (ok: number) => expect6(401, ok, ok, ok, ok, ok);

MATRIX['POST /upload'] = {
  expected: ANY_USER(200),
  call: async () => {
    const query = new URLSearchParams({
      resumableIdentifier: `access-${++uploads}`,
      resumableFilename: 'notes.txt',
      resumableChunkSize: '1',
      resumableChunkNumber: '1',
      resumableTotalSize: '1',
    });
    return { method: 'POST', path: `/upload/?${query}`, raw: { body: 'notes', contentType: 'text/plain' } };
  },
};
MATRIX['GET /upload'] = {
  // Each caller's own upload: the chunk is stored (200); an anonymous caller is refused.
  expected: ANY_USER(200),
  call: async (persona) => {
    const { query } = await uploadAs(world.tokens[persona]);
    return { method: 'GET', path: `/upload/?${query}` };
  },
};
MATRIX['GET /api/v1/uploads/{identifier}'] = {
  expected: ANY_USER(200),
  call: async (persona) => {
    const { identifier } = await uploadAs(world.tokens[persona]);
    return { method: 'GET', path: `/api/v1/uploads/${identifier}` };
  },
};
MATRIX['GET /api/v1/document/documents/{documentId}/content'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async () => {
    const { identifier } = await uploadAs(admin());
    const document = await createNode(api, admin(), {
      parent: { nodeId: world.folderA },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name: 'Notes',
      documentType: 'FILE',
      fileInfo: { uploadIdentifier: identifier, name: 'notes.txt' },
    });
    return { method: 'GET', path: `/api/v1/document/documents/${document.nodeId}/content` };
  },
};
// Its headers alone, to the same callers.
MATRIX['HEAD /api/v1/document/documents/{documentId}/content'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async (persona) => {
    const get = MATRIX['GET /api/v1/document/documents/{documentId}/content'];
    if (!get) throw new Error('the GET row comes first');
    return { ...(await get.call(persona)), method: 'HEAD' };
  },
};
/** A fresh document with two versions: its first version id and its current one. */
async function documentWithHistory() {
  const created = await createNode(api, admin(), urlDocument(world.folderA, 'Versioned'));
  const detailed = (await api.call('GET', `/api/v1/items/${created.nodeId}?detail=true`, { token: admin() }))
    .body;
  const { parent: _parent, ...body } = detailed;
  const updated = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
    token: admin(),
    body: { ...body, name: 'Versioned 2' },
  });
  return {
    nodeId: created.nodeId as string,
    first: created.nodeVersionId as string,
    current: updated.body.nodeVersionId as string,
  };
}
MATRIX['POST /api/v1/items/{nodeId}/publish'] = {
  expected: expect6(401, 403, 403, 404, 200, 200),
  call: async () => {
    const { nodeId, current } = await documentWithHistory();
    return { method: 'POST', path: `/api/v1/items/${nodeId}/publish`, body: { nodeVersionId: current } };
  },
};
MATRIX['GET /api/v1/items/{nodeId}/versions'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async () => ({
    method: 'GET',
    path: `/api/v1/items/${(await documentWithHistory()).nodeId}/versions`,
  }),
};
MATRIX['GET /api/v1/items/{nodeId}/versions/{nodeVersionId}'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async () => {
    const { nodeId, first } = await documentWithHistory();
    return { method: 'GET', path: `/api/v1/items/${nodeId}/versions/${first}` };
  },
};
MATRIX['POST /api/v1/items/{nodeId}/versions/{nodeVersionId}/restore'] = {
  expected: expect6(401, 403, 200, 404, 200, 200),
  call: async () => {
    const { nodeId, first, current } = await documentWithHistory();
    return {
      method: 'POST',
      path: `/api/v1/items/${nodeId}/versions/${first}/restore`,
      body: { nodeVersionId: current },
    };
  },
};
/** A fresh folder of environment A, deleted: in the trash. */
async function trashedFolder() {
  const nodeId = (await createNode(api, admin(), folder(world.envA, 'Trashed'))).nodeId as string;
  await api.call('DELETE', `/api/v1/items/${nodeId}`, { token: admin(), body: {} });
  return nodeId;
}
MATRIX['GET /api/v1/trash'] = {
  expected: expect6(401, 200, 200, 200, 200, 200),
  call: async () => ({ method: 'GET', path: '/api/v1/trash' }),
};
// Everyone signed in follows the feed; what each sees of it is filtered (test/integration/changes.test.ts).
/** A webhook on folder A, disabled (the access rows send nothing anywhere). */
async function folderWebhook(): Promise<string> {
  const made = await api.call('POST', '/api/v1/webhooks', {
    token: admin(),
    body: { url: 'https://93.184.216.34/hook', scopeNodeId: world.folderA, enabled: false },
  });
  if (made.status !== 201) throw new Error(`webhook: ${made.status} ${made.text}`);
  return made.body.webhookId;
}
/** A parked delivery of a fresh webhook on folder A, written as the deliverer leaves one. */
async function parkedDelivery(): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await folderWebhook();
  const at = new Date().toISOString();
  const deliveryId = `${at}_access-${Math.random().toString(36).slice(2, 10)}`;
  await ctx.stack.run(() =>
    createDelivery({
      webhookId,
      deliveryId,
      messageId: deliveryId,
      type: 'node.updated',
      payload: JSON.stringify({ type: 'node.updated', timestamp: at, data: {} }),
      state: 'parked',
      attempts: 8,
      nextAttemptAt: null,
      createdAt: at,
      deliveredAt: null,
      parkedAt: at,
      log: [],
      expiresAtEpoch: Math.floor(Date.now() / 1000) + 3600,
      claimedUntil: 0,
    }),
  );
  return { webhookId, deliveryId };
}
/** Webhooks are managed by the system administrator and the admins of their scope; others get 404. */
const WEBHOOK_ADMINS = (ok: number) => expect6(401, 404, 404, 404, ok, ok);
MATRIX['POST /api/v1/webhooks'] = {
  // Folder A: the other environment's admin cannot read it (404); its reader and editor may not (403).
  expected: expect6(401, 403, 403, 404, 201, 201),
  call: async () => ({
    method: 'POST',
    path: '/api/v1/webhooks',
    body: { url: 'https://93.184.216.34/hook', scopeNodeId: world.folderA, enabled: false },
  }),
};
MATRIX['GET /api/v1/webhooks'] = {
  expected: expect6(401, 200, 200, 200, 200, 200),
  call: async () => ({ method: 'GET', path: '/api/v1/webhooks' }),
};
MATRIX['GET /api/v1/webhooks/{webhookId}'] = {
  expected: WEBHOOK_ADMINS(200),
  call: async () => ({ method: 'GET', path: `/api/v1/webhooks/${await folderWebhook()}` }),
};
MATRIX['PATCH /api/v1/webhooks/{webhookId}'] = {
  expected: WEBHOOK_ADMINS(200),
  call: async () => ({
    method: 'PATCH',
    path: `/api/v1/webhooks/${await folderWebhook()}`,
    body: { description: 'changed' },
  }),
};
MATRIX['DELETE /api/v1/webhooks/{webhookId}'] = {
  expected: WEBHOOK_ADMINS(204),
  call: async () => ({ method: 'DELETE', path: `/api/v1/webhooks/${await folderWebhook()}` }),
};
MATRIX['POST /api/v1/webhooks/{webhookId}/secret'] = {
  expected: WEBHOOK_ADMINS(200),
  call: async () => ({ method: 'POST', path: `/api/v1/webhooks/${await folderWebhook()}/secret` }),
};
MATRIX['GET /api/v1/webhooks/{webhookId}/deliveries'] = {
  expected: WEBHOOK_ADMINS(200),
  call: async () => ({ method: 'GET', path: `/api/v1/webhooks/${await folderWebhook()}/deliveries` }),
};
MATRIX['POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay'] = {
  expected: WEBHOOK_ADMINS(202),
  call: async () => {
    const { webhookId, deliveryId } = await parkedDelivery();
    return { method: 'POST', path: `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/replay` };
  },
};
MATRIX['GET /api/v1/changes'] = {
  expected: expect6(401, 200, 200, 200, 200, 200),
  call: async () => ({ method: 'GET', path: '/api/v1/changes?pageSize=5' }),
};
MATRIX['POST /api/v1/items/{nodeId}/restore'] = {
  expected: expect6(401, 403, 403, 404, 200, 200),
  call: async () => ({ method: 'POST', path: `/api/v1/items/${await trashedFolder()}/restore` }),
};
MATRIX['DELETE /api/v1/trash/{nodeId}'] = {
  expected: expect6(401, 403, 403, 404, 204, 204),
  call: async () => ({ method: 'DELETE', path: `/api/v1/trash/${await trashedFolder()}` }),
};
/** A fresh process of environment A, documented by document A when `linked`. */
async function processForRelations(linked: boolean): Promise<string> {
  const process = (await createOfType(api, admin(), world.envA, 'PROCESS')).nodeId as string;
  if (linked) {
    await api.call('PUT', `/api/v1/items/${process}/relations/documentedBy/${world.documentA}`, {
      token: admin(),
    });
  }
  return process;
}
MATRIX['GET /api/v1/items/{nodeId}/relations'] = {
  expected: expect6(401, 200, 200, 404, 200, 200),
  call: async () => ({ method: 'GET', path: `/api/v1/items/${world.documentA}/relations` }),
};
MATRIX['PUT /api/v1/items/{nodeId}/relations/{relation}/{targetId}'] = {
  expected: expect6(401, 403, 200, 404, 200, 200),
  call: async () => ({
    method: 'PUT',
    path: `/api/v1/items/${await processForRelations(false)}/relations/documentedBy/${world.documentA}`,
  }),
};
MATRIX['DELETE /api/v1/items/{nodeId}/relations/{relation}/{targetId}'] = {
  expected: expect6(401, 403, 204, 404, 204, 204),
  call: async () => ({
    method: 'DELETE',
    path: `/api/v1/items/${await processForRelations(true)}/relations/documentedBy/${world.documentA}`,
  }),
};
for (const typed of TYPED_RETRIEVES) {
  MATRIX[`GET /api/v1${typed.path}`] = {
    expected: expect6(401, 200, 200, 404, 200, 200),
    call: async () => {
      const node = await createOfType(api, admin(), world.envA, typed.nodeTypes[0] as string);
      return { method: 'GET', path: `/api/v1${typed.path.replace(`{${typed.param}}`, node.nodeId)}` };
    },
  };
}

describe('access matrix', () => {
  it('has a row for every route of the route table', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  for (const route of ROUTES) {
    const key = `${route.method} ${route.path}`;
    it(key, async () => {
      const row = MATRIX[key];
      if (!row) throw new Error(`no matrix row for ${key}`);
      const seen: Partial<Record<Persona, number>> = {};
      for (const persona of PERSONAS) {
        const call = await row.call(persona);
        const token = 'token' in call ? call.token : world.tokens[persona];
        const response = await api.call(call.method, call.path, {
          token,
          ...(call.body !== undefined ? { body: call.body } : {}),
          ...(call.raw ? { rawBody: call.raw.body, headers: { 'content-type': call.raw.contentType } } : {}),
        });
        seen[persona] = response.status;
      }
      expect(seen).toEqual(row.expected);
    });
  }
});

describe('what each caller sees', () => {
  it('lists only the environments the caller may read', async () => {
    const names = async (persona: Persona) =>
      (
        await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token: world.tokens[persona] })
      ).body.results
        .map((e: { name: string }) => e.name)
        .sort();
    expect(await names('reader')).toEqual(['Default']);
    expect(await names('otherEnvAdmin')).toEqual(['Environment B']);
    expect((await names('systemAdmin')).length).toBeGreaterThanOrEqual(2);
  });

  it('a role granted on a folder reaches its subtree only', async () => {
    const username = 'folder-editor';
    const principalId = await createUser(api, admin(), username);
    await grant(api, admin(), world.folderA, principalId, 'EDITOR');
    const token = await api.login(username, PASSWORD);
    expect((await api.call('GET', `/api/v1/items/${world.documentA}`, { token })).status).toBe(200);
    expect(
      (await api.call('POST', '/api/v1/items', { token, body: urlDocument(world.folderA, 'Mine') })).status,
    ).toBe(200);
    expect((await api.call('GET', `/api/v1/items/${world.envA}`, { token })).status).toBe(404);
    expect(
      (await api.call('POST', '/api/v1/items', { token, body: folder(world.envA, 'Not mine') })).status,
    ).toBe(404);
  });

  it('never names a parent the caller may not read: lists and actions show it as null', async () => {
    const top = (await createNode(api, admin(), folder(world.envA, 'Board - Layoff plans 2027'))).nodeId;
    const shared = (await createNode(api, admin(), folder(top, 'Shared minutes'))).nodeId;
    const minutes = (await createNode(api, admin(), urlDocument(shared, 'Minutes'))).nodeId;
    const direct = (await createNode(api, admin(), folder(world.envA, 'Granted on its own'))).nodeId;
    const username = 'subfolder-reader';
    const principalId = await createUser(api, admin(), username);
    await grant(api, admin(), shared, principalId, 'READER');
    await grant(api, admin(), direct, principalId, 'READER');
    const token = await api.login(username, PASSWORD);
    expect((await api.call('GET', `/api/v1/items/${top}`, { token })).status).toBe(404);
    expect((await api.call('GET', `/api/v1/items/${world.envA}`, { token })).status).toBe(404);

    const everything = await api.call('GET', '/api/v1/list?pageSize=1000', { token });
    expect(everything.status).toBe(200);
    const parentOf = (id: string) =>
      everything.body.results.find((e: { nodeId: string }) => e.nodeId === id)?.parent;
    expect(parentOf(shared)).toBeNull();
    expect(parentOf(direct)).toBeNull();
    expect(parentOf(minutes)).toEqual({ nodeId: shared, name: 'Shared minutes', nodeType: 'DOCUMENT_SET' });
    expect(everything.text).not.toContain('Layoff');
    expect(everything.text).not.toContain(top);
    // The detailed retrieve and its version alike; the per-type retrieve takes `detail` too.
    const detailed = await api.call('GET', `/api/v1/items/${shared}?detail=true`, { token });
    expect(detailed.body.parent).toBeNull();
    const version = await api.call('GET', `/api/v1/items/${shared}/versions/${detailed.body.nodeVersionId}`, {
      token,
    });
    expect(version.body.parent).toBeNull();
    const typed = await api.call('GET', `/api/v1/document/documents/${minutes}?detail=true`, { token });
    expect(typed.status, typed.text).toBe(200);
    expect(typed.body.parent).toMatchObject({ nodeId: shared, name: 'Shared minutes' });
    // A folder's children: their parent is that folder, which the caller reads.
    const children = await api.call('GET', `/api/v1/list/${shared}`, { token });
    expect(children.body.results.map((e: { parent: unknown }) => e.parent)).toEqual([
      { nodeId: shared, name: 'Shared minutes', nodeType: 'DOCUMENT_SET' },
    ]);

    // An action on the folder: its assignee is not told what it sits in; the system administrator is.
    const assigned = await api.call('POST', '/api/v1/admin/actions', {
      token: admin(),
      body: { actionType: 'REVIEW', targetNodeId: shared, users: [principalId], dueDate: '2031-01-31' },
    });
    expect(assigned.status, assigned.text).toBe(201);
    expect(assigned.body[0].parent).toMatchObject({ nodeId: top, name: 'Board - Layoff plans 2027' });
    const actionId = assigned.body[0].actionId as string;
    const mine = await api.call('GET', '/api/v1/users/me/actions', { token });
    expect(mine.body.results.map((a: { parent: unknown }) => a.parent)).toEqual([null]);
    const one = await api.call('GET', `/api/v1/admin/actions/${actionId}`, { token });
    expect(one.body.parent).toBeNull();
    const done = await api.call('POST', `/api/v1/users/me/actions/${actionId}/done`, { token });
    expect(done.body.parent).toBeNull();
    expect(`${mine.text}${one.text}${done.text}`).not.toContain('Layoff');
  });
});
