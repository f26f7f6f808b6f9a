/**
 * Endpoints served inside this very process: the embedded stack's DynamoDB answers its endpoint both over
 * HTTP (for outside tools) and here, and an SDK client configured for that endpoint then reaches it with a
 * direct call instead of a loopback socket. The SDK still builds, signs and parses every request exactly
 * as it does against DynamoDB, and the answers and errors are the wire's; only the socket between two
 * parts of one process is gone (it cost more than the store's own work). In Lambda nothing is served
 * here, and clients use HTTP as ever.
 */

/** A request as the SDK built it (JSON protocols: the body is text). */
export interface InProcessRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface InProcessResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type InProcessServer = (request: InProcessRequest) => Promise<InProcessResponse>;

const servers = new Map<string, InProcessServer>();

/** Serves `endpoint` in this process until the returned function is called. */
export function serveInProcess(endpoint: string, server: InProcessServer): () => void {
  servers.set(endpoint, server);
  return () => {
    if (servers.get(endpoint) === server) servers.delete(endpoint);
  };
}

/**
 * The text of a body the SDK serialized to bytes. Read through its buffer: the SDK's byte bodies answer
 * valueOf() with a string (and warn), which Buffer.from(body) would call.
 */
const utf8 = (body: Uint8Array) =>
  Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');

/** What the SDK's node handler throws when a request is aborted. */
const aborted = () => Object.assign(new Error('Request aborted'), { name: 'AbortError' });

/** What a client meets at an endpoint that stopped serving, as at a closed port. */
const refused = (endpoint: string) =>
  Object.assign(new Error(`connect ECONNREFUSED ${endpoint}`), { code: 'ECONNREFUSED' });

/** An SDK request handler for an endpoint served in this process; undefined when it is not. */
export function inProcessRequestHandler(endpoint: string) {
  if (!servers.has(endpoint)) return undefined;
  return {
    async handle(
      request: { method: string; path: string; headers: Record<string, string>; body?: unknown },
      options?: { abortSignal?: { aborted: boolean; addEventListener?: AbortSignal['addEventListener'] } },
    ) {
      const signal = options?.abortSignal;
      if (signal?.aborted) throw aborted();
      const server = servers.get(endpoint);
      if (!server) throw refused(endpoint);
      const { body } = request;
      const answer = server({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: typeof body === 'string' ? body : body instanceof Uint8Array ? utf8(body) : '',
      });
      // As over a socket: an aborted request is given up at once, though the server may still carry it out.
      const response = signal?.addEventListener
        ? await Promise.race([
            answer,
            new Promise<never>((_, reject) => signal.addEventListener?.('abort', () => reject(aborted()))),
          ])
        : await answer;
      return { response };
    },
    updateHttpClientConfig(): void {},
    httpHandlerConfigs: () => ({}),
  };
}
