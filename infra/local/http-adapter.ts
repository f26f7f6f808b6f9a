/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): matches a request against the
 * route table, turns it into the event a Lambda handler receives, invokes the handler, and turns its
 * result back into an HTTP response. Faithful where handlers can tell: lower-cased headers, cookies in
 * `cookies`, repeated query values joined by commas, raw path and query string, base64 for binary
 * bodies, repeated Set-Cookie from `cookies`, the 10 MB payload limit.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { PayloadTooLargeError } from '#shared/domain/errors.ts';
import { corsHeaders, preflightHeaders } from '#shared/http/cors.ts';
import { problemResponse } from '#shared/http/problem.ts';
import { FALLBACK_OPERATION, type OperationName, resolveRoute } from '#shared/http/routes.ts';
import type { HttpHandler, HttpResult } from '#shared/http/types.ts';

/** API Gateway HTTP API's own request payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

const TEXT_MEDIA = /^(text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript|x-www-form-urlencoded))/i;

export type HandlerLoader = (operation: OperationName) => Promise<HttpHandler>;

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function toEvent(req: IncomingMessage, body: Buffer, requestId: string): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;

  const match = resolveRoute(method, url.pathname);
  const routed = match && 'route' in match ? match : undefined;
  const routeKey = routed ? `${method} ${routed.route.path}` : '$default';
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_MEDIA.test(contentType);
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(routed && Object.keys(routed.pathParameters).length > 0
      ? { pathParameters: routed.pathParameters }
      : {}),
    requestContext: {
      accountId: 'embedded',
      apiId: 'embedded',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: body.toString(isText ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function lambdaContext(operation: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: operation,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${operation}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${operation}`,
    logStreamName: 'embedded',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Payload 2.0 lets a handler return a bare value; API Gateway then answers 200 JSON. */
function normalizeResult(result: unknown): HttpResult {
  if (result && typeof result === 'object' && 'statusCode' in result) {
    const r = result as HttpResult;
    return { ...r, headers: r.headers ?? {} };
  }
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
}

function send(res: ServerResponse, result: HttpResult, requestId: string): void {
  const body = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  res.setHeader('apigw-requestid', requestId);
  res.setHeader('content-length', body.length);
  res.end(body);
}

/**
 * API Gateway answers CORS preflights itself and adds the CORS headers to every response when the
 * stage has an allow-list; so does the adapter, from the same policy.
 */
function withCors(
  result: HttpResult,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): HttpResult {
  return { ...result, headers: { ...result.headers, ...corsHeaders(origin, allowedOrigins) } };
}

export function createHttpAdapter(
  loadHandler: HandlerLoader,
  allowedOrigins: readonly string[] = [],
): RequestListener {
  return async (req, res) => {
    const requestId = randomUUID();
    const origin = req.headers.origin;
    let event: APIGatewayProxyEventV2 | undefined;
    if (
      allowedOrigins.length > 0 &&
      req.method === 'OPTIONS' &&
      req.headers['access-control-request-method']
    ) {
      req.resume();
      send(res, { statusCode: 204, headers: preflightHeaders(origin, allowedOrigins), body: '' }, requestId);
      return;
    }
    try {
      const body = await readBody(req);
      event = toEvent(req, body, requestId);
      const match = resolveRoute(event.requestContext.http.method, event.rawPath);
      const operation = match && 'route' in match ? match.route.operation : FALLBACK_OPERATION;
      const handler = await loadHandler(operation);
      const result = normalizeResult(await handler(event, lambdaContext(operation, requestId)));
      send(res, withCors(result, origin, allowedOrigins), requestId);
    } catch (error) {
      const path = event?.rawPath ?? req.url ?? '/';
      if (error instanceof BodyTooLarge) {
        send(res, problemResponse(new PayloadTooLargeError(MAX_PAYLOAD_BYTES), requestId, path), requestId);
        return;
      }
      // What API Gateway answers when the function itself fails.
      console.error(
        JSON.stringify({ level: 'error', msg: 'handler crashed', requestId, error: String(error) }),
      );
      if (!res.headersSent) send(res, problemResponse(error, requestId, path), requestId);
    }
  };
}
