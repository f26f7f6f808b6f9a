/**
 * What authentication and the permission check cost per request: the real retrieve handler against
 * the same retrieve without them, called in-process alternately on the same node (latency as a
 * median ratio), and the DynamoDB capacity each consumes.
 */
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpHandler } from '#shared/http/types.ts';

export interface AuthCost {
  latencyRatio: number;
  withAuth: { readCapacityUnits: number; writeCapacityUnits: number };
  withoutAuth: { readCapacityUnits: number; writeCapacityUnits: number };
}

/** The same retrieve, with no token, session or permission check. Loaded once the stack is configured. */
async function unauthenticatedRetrieveHandler(): Promise<HttpHandler> {
  const { findNode } = await import('#shared/data/node-repository.ts');
  const { toBaseElement } = await import('#shared/domain/node.ts');
  const { nodePathSchema } = await import('#shared/api/params.ts');
  const { handle } = await import('#shared/http/operation.ts');
  const { json } = await import('#shared/http/responses.ts');
  const { NotFoundError } = await import('#shared/domain/errors.ts');
  return handle(
    { name: 'getNodeWithoutAuth', authenticated: false, request: { path: nodePathSchema } },
    async ({ path }) => {
      const node = await findNode(path.nodeId);
      if (!node) throw new NotFoundError('NODE_NOT_FOUND', path.nodeId);
      return json(200, toBaseElement(node));
    },
  );
}

function retrieveEvent(nodeId: string, token: string): HttpEvent {
  const path = `/api/v1/items/${nodeId}`;
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/items/{nodeId}',
    rawPath: path,
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, host: 'bench.local' },
    pathParameters: { nodeId },
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'bench.local',
      domainPrefix: 'bench',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: 'GET /api/v1/items/{nodeId}',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    isBase64Encoded: false,
  };
}

async function timed(handler: HttpHandler, event: HttpEvent): Promise<number> {
  const started = process.hrtime.bigint();
  const result = await handler(event, {} as Context);
  if (result.statusCode !== 200) throw new Error(`bench request failed: ${result.statusCode} ${result.body}`);
  return Number(process.hrtime.bigint() - started);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function measureAuthCost(nodeId: string, token: string, rounds = 300): Promise<AuthCost> {
  const { handler: authenticatedRetrieve } = await import('#functions/nodes/get-node.ts');
  const { metered } = await import('#shared/clients/capacity-meter.ts');
  const unauthenticatedRetrieve = await unauthenticatedRetrieveHandler();
  const event = retrieveEvent(nodeId, token);
  for (let i = 0; i < 20; i++) {
    await timed(authenticatedRetrieve, event);
    await timed(unauthenticatedRetrieve, event);
  }
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const without = await timed(unauthenticatedRetrieve, event);
    ratios.push((await timed(authenticatedRetrieve, event)) / without);
  }
  const withAuth = (await metered(() => authenticatedRetrieve(event, {} as Context))).consumed;
  const withoutAuth = (await metered(() => unauthenticatedRetrieve(event, {} as Context))).consumed;
  return { latencyRatio: median(ratios), withAuth, withoutAuth };
}
