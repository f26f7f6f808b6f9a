/**
 * DynamoDB capacity each node operation consumes, read from the request log line every request
 * writes (the data layer asks DynamoDB for ReturnConsumedCapacity on every call). Runs on the
 * embedded stack, whose dynalite meters the table itself; GSI writes are not metered by dynalite.
 */
import { type AuthCost, measureAuthCost } from './auth-cost.ts';
import type { BenchStack } from './bench-stack.ts';

export interface CapacityFigures {
  operation: string;
  readCapacityUnits: number;
  writeCapacityUnits: number;
  /** DynamoDB calls the request made, and how many of them one after another. */
  dynamoCalls?: number;
  dynamoRoundTrips?: number;
}

export async function measureCapacity({ api, token, lastLine, stack }: BenchStack): Promise<{
  operations: CapacityFigures[];
  sessionCheck: CapacityFigures;
  authCost: AuthCost;
}> {
  const environments = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const parent = { nodeId: environments.body.results[0].nodeId };
  const figures: CapacityFigures[] = [];
  const record = (operation: string) =>
    figures.push({
      operation,
      readCapacityUnits: lastLine().consumedRCU,
      writeCapacityUnits: lastLine().consumedWCU,
      dynamoCalls: lastLine().dynamoCalls,
      dynamoRoundTrips: lastLine().dynamoRoundTrips,
    });

  const folder = { parent, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name: 'Bench folder' };
  const created = await api.call('POST', '/api/v1/items', { token, body: folder });
  record('create');
  await api.call('GET', `/api/v1/items/${created.body.nodeId}`, { token });
  record('retrieve');
  await api.call('PUT', `/api/v1/items/${created.body.nodeId}`, {
    token,
    body: {
      ...folder,
      name: 'Renamed',
      nodeId: created.body.nodeId,
      nodeVersionId: created.body.nodeVersionId,
    },
  });
  record('update');
  // A relation between a document in the folder and a role: linked, linked again (no change), unlinked.
  const document = await api.call('POST', '/api/v1/items', {
    token,
    body: {
      parent: { nodeId: created.body.nodeId },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name: 'Bench document',
      documentType: 'URL',
      url: 'https://example.com/bench',
    },
  });
  const role = await api.call('POST', '/api/v1/items', {
    token,
    body: { parent, '@type': 'Role', nodeType: 'ROLE', name: 'Bench role' },
  });
  const relation = `/api/v1/items/${document.body.nodeId}/relations/relatesTo/${role.body.nodeId}`;
  await api.call('PUT', relation, { token });
  record('link');
  await api.call('PUT', relation, { token });
  record('link again (no change)');
  await api.call('DELETE', relation, { token });
  record('unlink');
  await api.call('DELETE', `/api/v1/items/${role.body.nodeId}`, { token, body: {} });
  // Measured while the node exists, with the stack's configuration (as its functions run); log lines of
  // these in-process calls are not read.
  const authCost = await stack.run(() => measureAuthCost(created.body.nodeId, token));
  await api.call('DELETE', `/api/v1/items/${created.body.nodeId}`, { token, body: {} });
  record('delete (a folder and its document)');

  // The session check alone, measured through the same repository call every request makes.
  const { metered } = await import('#shared/clients/capacity-meter.ts');
  const { findSessionWithUser } = await import('#shared/data/session-repository.ts');
  const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
  const { consumed } = await stack.run(() => metered(() => findSessionWithUser(claims.sid, claims.sub)));
  return {
    operations: figures,
    sessionCheck: { operation: 'session check', ...consumed },
    authCost,
  };
}
