/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): matches a request against the
 * route table, turns it into the event a Lambda handler receives, invokes the handler, and turns its
 * result back into an HTTP response. Faithful where handlers can tell: lower-cased headers, cookies in
 * `cookies`, repeated query values joined by commas, raw path and query string, base64 for binary
 * bodies, repeated Set-Cookie from `cookies`, the 10 MB payload limit.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { FALLBACK_OPERATION, type Operation } from '#shared/api/operations/index.ts';
import {
  ExpectationFailedError,
  headerError,
  PayloadTooLargeError,
  UnreadableError,
} from '#shared/domain/errors.ts';
import { corsHeaders, preflightHeaders, varyByOrigin } from '#shared/http/cors.ts';
import { problemResponse } from '#shared/http/problem.ts';
import { resolveRoute } from '#shared/http/routes.ts';
import type { HttpHandler, HttpResult } from '#shared/http/types.ts';

/** API Gateway HTTP API's own request payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** Lambda's synchronous invoke payload, each way: the event as JSON (a binary body in base64), and the answer. */
export const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;

class FunctionAnswerTooLarge extends Error {}

/**
 * Whether an event or answer is over Lambda's payload limit, its size as Lambda counts it (its JSON):
 * the body's own bytes (base64 needs no escaping; text is counted as escaped) plus the rest as JSON.
 * A text body is escaped and measured only when it could be over: escaped, a UTF-16 unit takes at most
 * 6 bytes, so a body of up to a sixth of the limit is under it whatever it holds (every list page).
 */
function overPayloadLimit(payload: {
  body?: string | undefined;
  isBase64Encoded?: boolean | undefined;
}): boolean {
  const { body, ...rest } = payload;
  const restBytes = Buffer.byteLength(JSON.stringify(rest)) + 10;
  if (body === undefined) return restBytes > LAMBDA_PAYLOAD_BYTES;
  const bodyBound = payload.isBase64Encoded ? body.length : 6 * body.length + 2;
  if (restBytes + bodyBound <= LAMBDA_PAYLOAD_BYTES) return false;
  const bodyBytes = payload.isBase64Encoded ? body.length : Buffer.byteLength(JSON.stringify(body));
  return restBytes + bodyBytes > LAMBDA_PAYLOAD_BYTES;
}

const TEXT_MEDIA = /^(text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript|x-www-form-urlencoded))/i;

export type HandlerLoader = (operation: Operation) => Promise<HttpHandler>;

class BodyTooLarge extends Error {}
/** The client closed the connection before its body was complete: nobody is left to answer. */
class ClientGone extends Error {}

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
    req.on('error', (error) => reject(new ClientGone(error.message)));
  });
}

/** What the adapter reads of an HTTP request (an IncomingMessage, or a request a test describes). */
export interface RawRequest {
  method?: string | undefined;
  /** The request target exactly as sent: `/path?query`. */
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  httpVersion: string;
  remoteAddress?: string | undefined;
}

/**
 * Splits the request target as API Gateway does: the path is taken literally (no dot-segment
 * resolution, no decoding), so `/items/{id}/grants/..` is that route with `..` as its parameter and
 * never `/items/{id}`.
 */
function splitTarget(target: string): { rawPath: string; rawQueryString: string } {
  // Absolute-form targets (`GET http://host/path`) carry the path after the authority.
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  const hash = path.indexOf('#');
  const withoutFragment = hash < 0 ? path : path.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  return question < 0
    ? { rawPath: withoutFragment, rawQueryString: '' }
    : { rawPath: withoutFragment.slice(0, question), rawQueryString: withoutFragment.slice(question + 1) };
}

/**
 * queryStringParameters as API Gateway builds them: decoded, repeated names joined by commas. Values are
 * decoded leniently here (the handler refuses malformed escapes from rawQueryString); every name is an
 * own property, `__proto__` included, as in an event Lambda parsed from JSON.
 */
function queryParameters(rawQueryString: string): Record<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    const previous = query.get(name);
    query.set(name, previous === undefined ? value : `${previous},${value}`);
  }
  return Object.fromEntries(query);
}

export function toEvent(req: RawRequest, body: Buffer, requestId: string): APIGatewayProxyEventV2 {
  const { rawPath, rawQueryString } = splitTarget(req.url ?? '/');
  const method = (req.method ?? 'GET').toUpperCase();
  // Own properties whatever the name (`__proto__` included), as in an event Lambda parsed from JSON.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined || name === 'cookie'
        ? []
        : [[name, Array.isArray(value) ? value.join(',') : value]],
    ),
  );
  const cookies = (typeof req.headers.cookie === 'string' ? req.headers.cookie : '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const query = queryParameters(rawQueryString);

  const match = resolveRoute(method, rawPath);
  const routed = match && 'route' in match ? match : undefined;
  const routeKey = routed ? `${method} ${routed.route.path}` : '$default';
  const contentType = headers['content-type'] ?? '';
  // Text is passed as text; anything else, and text that is not UTF-8, as base64 (the handler judges it).
  const isText = body.length === 0 || (TEXT_MEDIA.test(contentType) && isUtf8(body));
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
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
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
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
  if (result.statusCode === 204 || result.statusCode === 304) {
    // A 204 has no Content-Length, and a 304's could only repeat the 200's, which the answer lacks
    // (RFC 9110 §8.6); Node sends neither a body nor framing for them.
    res.removeHeader('content-length');
  } else if (res.req.method !== 'HEAD' || !res.hasHeader('content-length')) {
    // A HEAD's answer keeps the length of the GET's body it leaves out (Node sends no body for a HEAD).
    res.setHeader('content-length', body.length);
  }
  res.end(body);
}

/**
 * API Gateway answers CORS preflights itself and adds the CORS headers to every response when the
 * stage has an allow-list; so does the adapter, from the same policy. Every answer then says it varies
 * with the Origin, the allowed one's and any other's alike.
 */
function withCors(
  result: HttpResult,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): HttpResult {
  const headers = { ...result.headers, ...corsHeaders(origin, allowedOrigins) };
  return varyByOrigin({ ...result, headers }, allowedOrigins);
}

/** An HTTP/1.1 request that does not name its host (RFC 9112 §3.2: a 400). */
const missingHost = () =>
  new UnreadableError('MALFORMED_REQUEST', 'An HTTP/1.1 request must name the host it is for in Host', [
    headerError('Host', 'required', 'is required in HTTP/1.1'),
  ]);

/**
 * `run` invokes each handler as Lambda would invoke the stack's function: with that stack's configuration
 * (several stacks may share this process).
 */
export function createHttpAdapter(
  loadHandler: HandlerLoader,
  allowedOrigins: readonly string[] = [],
  run: <T>(invoke: () => T) => T = (invoke) => invoke(),
): RequestListener {
  return async (req, res) => {
    const requestId = randomUUID();
    const origin = req.headers.origin;
    const answer = (result: HttpResult) => send(res, withCors(result, origin, allowedOrigins), requestId);
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      // API Gateway always has the host it was reached at; the server leaves this check to the adapter.
      req.resume();
      res.setHeader('connection', 'close');
      answer(problemResponse(missingHost(), requestId, splitTarget(req.url ?? '/').rawPath));
      return;
    }
    let event: APIGatewayProxyEventV2 | undefined;
    if (
      allowedOrigins.length > 0 &&
      req.method === 'OPTIONS' &&
      req.headers['access-control-request-method']
    ) {
      req.resume();
      answer({ statusCode: 204, headers: preflightHeaders(origin, allowedOrigins), body: '' });
      return;
    }
    try {
      // Node's parser takes chunked framing only; another coding would reach the handler still encoded.
      const transferEncoding = req.headers['transfer-encoding'];
      if (transferEncoding !== undefined && transferEncoding.trim().toLowerCase() !== 'chunked') {
        throw new UnreadableError(
          'MALFORMED_REQUEST',
          `Only chunked framing is understood (got Transfer-Encoding "${transferEncoding}")`,
        );
      }
      const body = await readBody(req);
      event = toEvent(
        {
          method: req.method,
          url: req.url,
          headers: req.headers,
          httpVersion: req.httpVersion,
          remoteAddress: req.socket.remoteAddress,
        },
        body,
        requestId,
      );
      if (overPayloadLimit(event)) throw new BodyTooLarge();
      const match = resolveRoute(event.requestContext.http.method, event.rawPath);
      const operation = match && 'route' in match ? match.route.operation : FALLBACK_OPERATION;
      const handler = await loadHandler(operation);
      const invocation = event;
      const result = normalizeResult(
        await run(() => handler(invocation, lambdaContext(operation.name, requestId))),
      );
      // Lambda refuses an answer over its payload limit; the client then gets a 500.
      if (overPayloadLimit(result)) throw new FunctionAnswerTooLarge();
      answer(result);
    } catch (error) {
      const path = event?.rawPath ?? req.url ?? '/';
      if (error instanceof BodyTooLarge) {
        // API Gateway's 10 MB, or (for the event Lambda receives) Lambda's 6 MB.
        const limit = event ? LAMBDA_PAYLOAD_BYTES : MAX_PAYLOAD_BYTES;
        answer(problemResponse(new PayloadTooLargeError(limit), requestId, path));
        return;
      }
      if (error instanceof ClientGone) {
        console.log(
          JSON.stringify({ level: 'info', msg: 'client closed the request before its body', requestId }),
        );
        return;
      }
      if (error instanceof UnreadableError) {
        answer(problemResponse(error, requestId, path));
        return;
      }
      // What API Gateway answers when the function itself fails.
      console.error(
        JSON.stringify({ level: 'error', msg: 'handler crashed', requestId, error: String(error) }),
      );
      if (!res.headersSent) answer(problemResponse(error, requestId, path));
    }
  };
}

/**
 * The server the adapter answers on: requests Node's parser refuses, and an Expect it cannot meet, are
 * answered as problem+json, and a request without Host reaches the adapter, which answers it so too
 * (Node's own answers to these are bare).
 */
export function createAdapterServer(listener: RequestListener): Server {
  const server = createServer({ requireHostHeader: false }, listener);
  server.on('clientError', answerMalformedRequest);
  server.on('checkExpectation', answerUnmetExpectation);
  return server;
}

/** Node answers an `Expect` other than 100-continue with a bare 417; API Gateway's answers are problem+json. */
function answerUnmetExpectation(req: IncomingMessage, res: ServerResponse): void {
  const requestId = randomUUID();
  const path = (req.url ?? '').split('?')[0] ?? '';
  const problem = problemResponse(new ExpectationFailedError(String(req.headers.expect)), requestId, path);
  res.setHeader('connection', 'close');
  send(res, problem, requestId);
  req.resume();
}

/**
 * A request Node's HTTP parser cannot read (a bad request line, header or framing) never reaches the
 * adapter: like API Gateway, answer a 400 before any function runs, as problem+json, then close.
 */
function answerMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return;
  const requestId = randomUUID();
  const problem = problemResponse(
    new UnreadableError(
      'MALFORMED_REQUEST',
      `The request cannot be read as HTTP (${error.code ?? 'parse error'})`,
    ),
    requestId,
    '',
  );
  const body = Buffer.from(problem.body ?? '');
  const headers = Object.entries({ ...problem.headers, 'apigw-requestid': requestId, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 400 Bad Request\r\n${headers}content-length: ${body.length}\r\n\r\n${body}`);
}
