/**
 * Spec §4.5's flow, for every type that can be created: retrieve the object (plain, with detail=true, or
 * by its type's own retrieve path), change one field locally, submit it. The update is accepted, changes that field, and keeps every field
 * the retrieved body left out.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CREATABLE_NODE_TYPES } from '#shared/domain/node-types.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { createNode, createOfType } from './helpers/library.ts';
import { type ApiClient, type TestStack, tableClient, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;
let ctx: TestStack;

withAdminSession((session) => {
  ({ api, token, environmentId, ctx } = session);
});

const kept = {
  richTextDescription: '<p>Kept as it was</p>',
  referenceNumber: 'REF-7',
  extensions: { owner: 'finance', level: 2 },
};

describe('retrieve, modify locally, submit (spec §4.5)', () => {
  for (const nodeType of CREATABLE_NODE_TYPES) {
    it(`works for ${nodeType} with the plain and the detailed body`, async () => {
      const created = await createOfType(api, token, environmentId, nodeType, `A ${nodeType}`, kept);
      const path = `/api/v1/items/${created.nodeId}`;
      const detailedBefore = (await api.call('GET', `${path}?detail=true`, { token })).body;

      const plain = (await api.call('GET', path, { token })).body;
      const first = await api.call('PUT', path, { token, body: { ...plain, name: `${nodeType} renamed` } });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ name: `${nodeType} renamed`, version: '0.0002' });

      const detailed = (await api.call('GET', `${path}?detail=true`, { token })).body;
      // Only the name changed; what the plain body left out (description, type fields, ...) was kept.
      expect(detailed).toEqual({
        ...detailedBefore,
        name: `${nodeType} renamed`,
        version: '0.0002',
        nodeVersionId: first.body.nodeVersionId,
        modificationDate: first.body.modificationDate,
      });
      expect(detailed).toMatchObject(kept);

      const second = await api.call('PUT', path, {
        token,
        body: { ...detailed, referenceNumber: 'REF-8', richTextDescription: null },
      });
      expect(second.status, second.text).toBe(200);
      const after = (await api.call('GET', `${path}?detail=true`, { token })).body;
      expect(after).toMatchObject({
        referenceNumber: 'REF-8',
        richTextDescription: null,
        extensions: kept.extensions,
      });
    });
  }

  for (const typed of TYPED_RETRIEVES) {
    const [nodeType] = typed.nodeTypes as [string];
    it(`works for ${nodeType} with the body of ${typed.path}`, async () => {
      const created = await createOfType(api, token, environmentId, nodeType, `Typed ${nodeType}`, kept);
      const typedPath = `/api/v1${typed.path.replace(`{${typed.param}}`, created.nodeId)}`;
      const retrieved = await api.call('GET', typedPath, { token });
      expect(retrieved.status, retrieved.text).toBe(200);
      expect(retrieved.body).toHaveProperty('relationSummary');
      const updated = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
        token,
        body: { ...retrieved.body, name: `${nodeType} renamed from its own view` },
      });
      expect(updated.status, updated.text).toBe(200);
      const after = (await api.call('GET', typedPath, { token })).body;
      expect(after).toMatchObject({
        ...kept,
        name: `${nodeType} renamed from its own view`,
        version: '0.0002',
      });
    });
  }

  it('takes text stored before its rules were tightened back unchanged, and holds a change to them', async () => {
    const created = await createOfType(api, token, environmentId, 'DOCUMENT', 'Legacy');
    // Written before today's rules: a link with a space, text with a vertical tab and a control character.
    const legacy = {
      url: 'https://intranet.example/a b',
      richTextDescription: '<p>one\u000btwo</p>',
      referenceNumber: 'R\u00011',
    };
    const { client: table, TableName } = tableClient(ctx.stack);
    await table.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `NODE#${created.nodeId}`, SK: 'DRAFT' },
        UpdateExpression: 'SET #url = :url, richTextDescription = :rich, referenceNumber = :ref',
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: {
          ':url': legacy.url,
          ':rich': legacy.richTextDescription,
          ':ref': legacy.referenceNumber,
        },
      }),
    );
    const path = `/api/v1/document/documents/${created.nodeId}`;
    const retrieved = (await api.call('GET', path, { token })).body;
    expect(retrieved).toMatchObject(legacy);
    const renamed = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...retrieved, name: 'Legacy, renamed' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api.call('GET', path, { token })).body).toMatchObject({
      ...legacy,
      name: 'Legacy, renamed',
    });
    // Changed, each is held to the rules.
    for (const [field, value, rule] of [
      ['url', 'https://intranet.example/c d', 'url_characters'],
      ['richTextDescription', '<p>\u0000</p>', 'control_characters'],
      ['referenceNumber', 'R\u00022', 'control_characters'],
    ]) {
      const refused = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
        token,
        body: { ...retrieved, nodeVersionId: renamed.body.nodeVersionId, [field as string]: value },
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: `$.${field}`, rule })]);
    }
  });

  it('takes a name stored before it counted as blank back unchanged, and refuses another blank one', async () => {
    const created = await createOfType(api, token, environmentId, 'DOCUMENT', 'Named with a filler');
    const { client: table, TableName } = tableClient(ctx.stack);
    await table.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `NODE#${created.nodeId}`, SK: 'DRAFT' },
        UpdateExpression: 'SET #name = :name',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': '\u3164' },
      }),
    );
    const retrieved = (await api.call('GET', `/api/v1/items/${created.nodeId}`, { token })).body;
    const described = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...retrieved, richTextDescription: '<p>Described</p>' },
    });
    expect(described.status, described.text).toBe(200);
    expect(described.body.name).toBe('\u3164');
    const refused = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...retrieved, nodeVersionId: described.body.nodeVersionId, name: '\u2800' },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: '$.name', rule: 'not_blank' })]);
  });

  it('works for a task as add-nodes answered it (with its editId)', async () => {
    const process = await createOfType(api, token, environmentId, 'PROCESS', 'Procure to pay');
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [
        {
          '@type': 'TaskNode',
          nodeType: 'TASK',
          editId: 'a',
          name: 'Approve invoice',
          sequenceNumber: 1,
          topLeftX: 0,
          topLeftY: 0,
          width: 100,
          height: 80,
        },
      ],
    });
    expect(added.status, added.text).toBe(200);
    const [task] = added.body;
    expect(task.editId).toBe('a');
    const updated = await api.call('PUT', `/api/v1/items/${task.nodeId}`, {
      token,
      body: { ...task, name: 'Approve the invoice' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Approve the invoice', version: '0.0003' });
    // The BPMN type the diagram shows is the service's (set by an import): sent back changed, ignored.
    const retyped = await api.call('PUT', `/api/v1/items/${task.nodeId}`, {
      token,
      body: { ...updated.body, name: 'Approve it', bpmnKind: 'bpmn:UserTask' },
    });
    expect(retyped.status, retyped.text).toBe(200);
    const diagram = await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token });
    expect(diagram.body.tasks).toEqual([expect.objectContaining({ name: 'Approve it', bpmnKind: null })]);
    // The task as the client sent it to add-nodes, its edges by editId included, is taken too (the edges
    // ignored: they are changed through the diagram's routes).
    const asSent = {
      '@type': 'TaskNode',
      nodeType: 'TASK',
      editId: 'a',
      name: 'Approve, as sent',
      sequenceNumber: 1,
      topLeftX: 0,
      topLeftY: 0,
      width: 100,
      height: 80,
      edges: [
        {
          sourceNodeId: 'a',
          sourcePortPoint: { x: 100, y: 40 },
          targetNodeId: 'b',
          targetPortPoint: { x: 0, y: 40 },
        },
      ],
    };
    const resent = await api.call('PUT', `/api/v1/items/${task.nodeId}`, {
      token,
      body: { ...asSent, nodeId: task.nodeId, nodeVersionId: retyped.body.nodeVersionId },
    });
    expect(resent.status, resent.text).toBe(200);
    const after = await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token });
    expect(after.body.edges).toEqual([]);
  });

  it('works for a process whose own view lists tasks, edges and relations; those must keep their types', async () => {
    const process = await createOfType(api, token, environmentId, 'PROCESS', 'Order to cash', kept);
    const task = (name: string) =>
      createNode(api, token, {
        parent: { nodeId: process.nodeId },
        '@type': 'TaskNode',
        nodeType: 'TASK',
        name,
      });
    const [check, ship] = [await task('Check order'), await task('Ship order')];
    const edge = await api.call('POST', `/api/v1/process/processes/${process.nodeId}/edges`, {
      token,
      body: [
        {
          sourceNodeId: check.nodeId,
          sourcePortPoint: { x: 100, y: 40 },
          targetNodeId: ship.nodeId,
          targetPortPoint: { x: 0, y: 40 },
        },
      ],
    });
    expect(edge.status, edge.text).toBe(200);
    const role = await createOfType(api, token, environmentId, 'ROLE', 'Clerk');
    const document = await createOfType(api, token, environmentId, 'DOCUMENT', 'Order policy');
    for (const [relation, target] of [
      ['accountable', role.nodeId],
      ['documentedBy', document.nodeId],
    ]) {
      const linked = await api.call(
        'PUT',
        `/api/v1/items/${process.nodeId}/relations/${relation}/${target}`,
        {
          token,
        },
      );
      expect(linked.status, linked.text).toBeLessThan(300);
    }
    const typedPath = `/api/v1/process/processes/${process.nodeId}`;
    const retrieved = (await api.call('GET', typedPath, { token })).body;
    expect(retrieved.tasks).toHaveLength(2);
    expect(retrieved.edges).toHaveLength(1);

    // Sent back with a field of the view mistyped, each is a 400 naming it, and changes nothing.
    const mistyped: [string, unknown][] = [
      ['tasks', 'Check order'],
      ['edges', 5],
      ['relationSummary', []],
      ['tasks', [{ ...retrieved.tasks[0], bpmnKind: 'Nope' }]],
    ];
    for (const [field, value] of mistyped) {
      const refused = await api.call('PUT', `/api/v1/items/${process.nodeId}`, {
        token,
        body: { ...retrieved, name: 'Not taken', [field]: value },
      });
      expect(refused.status, `${field}: ${refused.text}`).toBe(400);
      expect(refused.body.errors[0].path, field).toMatch(new RegExp(`^\\$\\.${field}\\b`));
    }
    expect((await api.call('GET', typedPath, { token })).body).toEqual(retrieved);

    const updated = await api.call('PUT', `/api/v1/items/${process.nodeId}`, {
      token,
      body: { ...retrieved, name: 'Order to cash, renamed' },
    });
    expect(updated.status, updated.text).toBe(200);
    const after = (await api.call('GET', typedPath, { token })).body;
    expect(after).toMatchObject({ ...kept, name: 'Order to cash, renamed', edges: retrieved.edges });
    expect(after.tasks).toEqual(retrieved.tasks);
  });
});
