/** A webhook endpoint for tests: an HTTP server on loopback that keeps what it receives and answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The message, parsed. */
  message: { type: string; timestamp: string; data: Record<string, any> };
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes to answer, in turn; once used up, 204. */
  answerWith(...statuses: number[]): void;
  /** Resolves once `predicate` holds for what was received (polling), or fails after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  let answers: number[] = [];
  const server = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const body = Buffer.concat(pieces).toString('utf8');
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        message: JSON.parse(body),
        at: Date.now(),
      });
      res.writeHead(answers.shift() ?? 204, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answerWith: (...statuses) => {
      answers = statuses;
    },
    async until(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`the receiver did not get what was awaited (${received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
