/**
 * Lambda's Invoke API for functions that run in this process: a LambdaClient pointed at `endpoint` invokes
 * them as it would in the cloud. Asynchronous invocations (`Event`) are answered 202 at once and run in
 * the background, retried twice on error as Lambda retries them; synchronous ones answer the result, or
 * the error as the Node.js runtime reports it (200 with X-Amz-Function-Error).
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBody } from './read-body.ts';

export type LocalFunction = (payload: unknown) => Promise<unknown>;

export interface LocalLambda {
  /** e.g. http://127.0.0.1:PORT — what LambdaClient's `endpoint` is set to. */
  endpoint: string;
  /** Settles when every invocation accepted so far (retries included) has finished. */
  idle(): Promise<void>;
  /** Stops accepting, waits for running invocations (idle), closes the server. */
  close(): Promise<void>;
}

const MB = 1024 * 1024;
/**
 * Payload limits of Invoke (Lambda API reference, Invoke: "For synchronous invocations, the maximum payload
 * size is 6 MB. For asynchronous invocations, the maximum payload size is 1 MB."; Lambda's MB is 1,024 KB,
 * and the cloud's message names 6291456 bytes). Older quota pages give 256 KB for asynchronous ones.
 */
const REQUEST_LIMIT_BYTES = { Event: MB, RequestResponse: 6 * MB, DryRun: 6 * MB } as const;
const RESPONSE_LIMIT_BYTES = 6 * MB;
type InvocationType = keyof typeof REQUEST_LIMIT_BYTES;

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
/** A function name, name:qualifier, ARN or partial ARN (account:function:name), after Invoke's pattern. */
const FUNCTION_IDENTIFIER =
  /^(?:arn:aws[a-zA-Z-]*:lambda:[a-z0-9-]+:)?(?:\d{12}:)?(?:function:)?([a-zA-Z0-9_.-]+)(?::(?:\$LATEST|[a-zA-Z0-9_-]+))?$/;

/** An error Lambda answers itself (the function did not run), as the SDK reads it: status, type header, body. */
class LambdaApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    /** Lambda's shapes spell it `message`, but `Message` for ResourceNotFoundException. */
    readonly messageField: 'message' | 'Message' = 'message',
  ) {
    super(message);
  }
}

/** An error as the Node.js runtime reports it (the body of a synchronous answer, and the logs). */
function describeError(error: unknown) {
  if (!(error instanceof Error)) return { errorType: typeof error, errorMessage: String(error) };
  return { errorType: error.name, errorMessage: error.message, trace: error.stack?.split('\n') ?? [] };
}

/** Writes the answer; settles once it is handed to the socket, so closing after it loses nothing. */
function reply(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body = '',
): Promise<void> {
  return new Promise((resolve) => {
    res.on('close', resolve);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-amzn-requestid': randomUUID(),
      ...headers,
    });
    res.end(body, resolve);
  });
}

function parsePayload(body: Buffer): unknown {
  return body.length === 0 ? null : JSON.parse(body.toString('utf8'));
}

export async function startLocalLambda(options: {
  functions: Record<string, LocalFunction>;
  /** Runs each invocation in the caller's context (the embedded stack passes its `run`, which scopes config). */
  run?: <T>(fn: () => T) => T;
  /** Delays before the two retries of a failed asynchronous invocation (Lambda: about 1 and 2 minutes). */
  retryDelaysMs?: readonly number[];
  host?: string;
}): Promise<LocalLambda> {
  const functions = new Map(Object.entries(options.functions));
  const run = options.run ?? (<T>(fn: () => T): T => fn());
  const retryDelaysMs = options.retryDelaysMs ?? [1000, 2000];
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  const track = (work: Promise<unknown>) => {
    inFlight.add(work);
    work.finally(() => inFlight.delete(work)).catch(() => undefined);
  };
  // Each attempt parses the payload afresh, so a retry sees the event as sent, whatever the last one did.
  const invoke = async (fn: LocalFunction, body: Buffer) => run(() => fn(parsePayload(body)));

  async function invokeInBackground(name: string, fn: LocalFunction, body: Buffer): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await invoke(fn, body);
        return;
      } catch (error) {
        const retryInMs = retryDelaysMs[attempt - 1];
        console.error(
          JSON.stringify({
            level: 'error',
            msg: 'Asynchronous invocation failed',
            functionName: name,
            attempt,
            retryInMs: retryInMs ?? null,
            ...describeError(error),
          }),
        );
        if (retryInMs === undefined) return;
        await sleep(retryInMs);
      }
    }
  }

  /** What a synchronous invocation answers: the result, or the function's error in its place. */
  async function invokeAndWait(fn: LocalFunction, body: Buffer): Promise<{ body: string; error?: string }> {
    try {
      const payload = JSON.stringify((await invoke(fn, body)) ?? null);
      if (Buffer.byteLength(payload) <= RESPONSE_LIMIT_BYTES) return { body: payload };
      const errorMessage = `Response payload size exceeded maximum allowed payload size (${RESPONSE_LIMIT_BYTES} bytes).`;
      return {
        body: JSON.stringify({ errorType: 'Function.ResponseSizeTooLarge', errorMessage }),
        error: 'Unhandled',
      };
    } catch (error) {
      return { body: JSON.stringify(describeError(error)), error: 'Unhandled' };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = req.method === 'POST' ? INVOKE_PATH.exec(path) : null;
    if (!route?.[1]) throw new LambdaApiError(404, 'UnknownOperationException', 'UnknownOperationException');
    if (closing) throw new LambdaApiError(503, 'ServiceException', 'The local Lambda is closing');

    const identifier = decodeURIComponent(route[1]);
    const name = FUNCTION_IDENTIFIER.exec(identifier)?.[1];
    if (!name) {
      throw new LambdaApiError(
        400,
        'ValidationException',
        `1 validation error detected: Value '${identifier}' at 'functionName' failed to satisfy constraint`,
      );
    }
    const fn = functions.get(name);
    if (!fn) {
      throw new LambdaApiError(
        404,
        'ResourceNotFoundException',
        `Function not found: ${identifier}`,
        'Message',
      );
    }
    const type = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (!Object.hasOwn(REQUEST_LIMIT_BYTES, type)) {
      throw new LambdaApiError(400, 'InvalidParameterValueException', `Invalid invocation type: ${type}`);
    }
    const limit = REQUEST_LIMIT_BYTES[type as InvocationType];
    if (body.length > limit) {
      throw new LambdaApiError(
        413,
        'RequestEntityTooLargeException',
        `Request must be smaller than ${limit} bytes for the InvokeFunction operation`,
      );
    }
    try {
      parsePayload(body);
    } catch (error) {
      throw new LambdaApiError(
        400,
        'InvalidRequestContentException',
        `Could not parse request body into json: ${(error as Error).message}`,
      );
    }

    if (type === 'DryRun') return reply(res, 204, {});
    if (type === 'Event') {
      track(invokeInBackground(name, fn, body));
      return reply(res, 202, {});
    }
    const answer = await invokeAndWait(fn, body);
    return reply(
      res,
      200,
      {
        'x-amz-executed-version': '$LATEST',
        ...(answer.error ? { 'x-amz-function-error': answer.error } : {}),
      },
      answer.body,
    );
  }

  const server = http.createServer((req, res) => {
    track(
      handle(req, res).catch(async (error: unknown) => {
        const known =
          error instanceof LambdaApiError
            ? error
            : new LambdaApiError(500, 'ServiceException', `Local Lambda failed: ${String(error)}`);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        await reply(
          res,
          known.status,
          { 'x-amzn-errortype': known.type },
          JSON.stringify({
            Type: known.status < 500 ? 'User' : 'Service',
            [known.messageField]: known.message,
          }),
        );
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;

  const idle = async () => {
    await Promise.allSettled([...inFlight]);
  };

  return {
    endpoint: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    idle,
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await idle();
      server.closeAllConnections();
      await closed;
    },
  };
}
