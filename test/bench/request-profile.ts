/**
 * Where a retrieve's time goes on the embedded stack, and what the request path costs over its DynamoDB
 * work: the same calls (captured from one request) replayed with a bare SDK client against the same
 * embedded DynamoDB, round trip by round trip, as the request made them. The breakdown is the CPU
 * profile of many retrieves, its samples grouped by the code they fell in.
 */
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientSettings } from '#shared/clients/aws-client-settings.ts';
import type { BenchStack } from './bench-stack.ts';

// @smithy/core resolves to one (CommonJS) module for `import` and `require` alike under Node.
const { Client } = createRequire(import.meta.url)('@smithy/core/client') as {
  Client: { prototype: { send: (command: unknown, ...rest: unknown[]) => Promise<unknown> } };
};

interface Command {
  constructor: new (input: unknown) => Command;
  input: unknown;
}
interface CapturedCall {
  command: Command;
  start: number;
  end: number;
}

/** Runs `fn` and returns every SDK call it made, with when it started and ended. */
async function captureCalls(fn: () => Promise<unknown>): Promise<CapturedCall[]> {
  const calls: CapturedCall[] = [];
  const send = Client.prototype.send;
  Client.prototype.send = function (this: unknown, command: unknown, ...rest: unknown[]) {
    const call = { command: command as Command, start: performance.now(), end: Number.POSITIVE_INFINITY };
    calls.push(call);
    return send.call(this, command, ...rest).finally(() => {
      call.end = performance.now();
    });
  };
  try {
    await fn();
  } finally {
    Client.prototype.send = send;
  }
  return calls;
}

/** The calls in round trips: a call that started after every call of the round before had ended waited. */
function roundTripsOf(calls: CapturedCall[]): CapturedCall[][] {
  const rounds: CapturedCall[][] = [];
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    const current = rounds.at(-1);
    if (current?.some((c) => c.end > call.start)) current.push(call);
    else rounds.push([call]);
  }
  return rounds;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Each part of the breakdown, by where the sampled code lives. First match wins. */
const PARTS: [part: string, pattern: RegExp][] = [
  ['the calling client (fetch, same process)', /node:internal\/deps\/undici/],
  ['dynalite', /node_modules\/dynalite\//],
  [
    'LevelDB (classic-level and its layers)',
    /node_modules\/(classic-level|abstract-level|level[-\w]*|memory-level|module-error)\//,
  ],
  [
    'DynamoDB gateway (transactions, locks, lag)',
    /\/infra\/local\/(dynamodb-|item-locks|index-lag|local-dynamodb)/,
  ],
  ['AWS SDK (serialization, signing, HTTP)', /node_modules\/(@aws-sdk|@smithy|@aws)\//],
  ['HTTP adapter and event building', /\/infra\/local\/(http-adapter|read-body|local-lambda|embedded-stack)/],
  [
    'middleware (middy, validation, auth)',
    /node_modules\/(@middy|zod|aws-jwt-verify|lossless-json)\/|\/shared\/(http|auth|config)\//,
  ],
  ['handler, services and data layer', /\/(functions|shared)\//],
  ['Node HTTP, sockets, streams', /^node:(_http|http|net|stream|internal\/(http|stream|net|streams|url))/],
  [
    'promise scheduling and async context (AsyncLocalStorage)',
    /^node:(async_hooks|internal\/(async_hooks|process\/task_queues|timers))|^\((runMicrotasks)\)$/,
  ],
  ['garbage collection', /^\(garbage collector\)$/],
  ['native code (socket writes, ES256, hashing)', /^\(.*\)$/],
];

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
}

function partOf(node: ProfileNode): string | undefined {
  const { url, functionName } = node.callFrame;
  if (functionName === '(idle)' || functionName === '(program)') return undefined;
  // Native and V8 frames have no URL: name them by function, in parentheses.
  const where = url || `(${functionName.replace(/[()]/g, '')})`;
  return PARTS.find(([, pattern]) => pattern.test(where))?.[0] ?? 'other Node internals';
}

export interface RequestProfile {
  /** Median of HTTP retrieve / replay of its DynamoDB calls, measured alternately. */
  overheadRatio: number;
  calls: number;
  roundTrips: number;
  /** Share of busy CPU time per part, largest first. */
  breakdown: { part: string; share: number }[];
}

export async function measureRequestProfile(
  { api, token, stack, lastLine }: BenchStack,
  { pairs = 200, profiled = 400 } = {},
): Promise<RequestProfile> {
  const environments = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const parent = { nodeId: environments.body.results[0].nodeId };
  const folder = { parent, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name: 'Profiled' };
  const created = await api.call('POST', '/api/v1/items', { token, body: folder });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.text}`);
  // A plain client, as a caller's would be (the bench's ApiClient also checks answers against the contract).
  const url = `${stack.url}/api/v1/items/${created.body.nodeId}`;
  const retrieve = async () => {
    const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`retrieve answered ${answer.status}: ${text}`);
  };
  await retrieve();
  // The change recorder writes in the background after a write: let it finish, so that only the
  // retrieve's own calls are captured.
  await stack.backgroundIdle();
  const rounds = roundTripsOf(await captureCalls(retrieve));
  // The request's log line counts its own calls: the capture must hold those and nothing else.
  const own = lastLine().dynamoCalls;
  if (rounds.flat().length !== own)
    throw new Error(`captured ${rounds.flat().length} calls, the retrieve made ${own}`);

  // A bare SDK client on the same transport the functions use (the embedded DynamoDB's endpoint, served
  // in this process), so the ratio is what the request path adds over its DynamoDB calls.
  const raw = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      ...awsClientSettings(stack.config, stack.config.dynamoDbEndpoint),
      maxAttempts: 3,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const replay = async () => {
    for (const round of rounds) {
      await Promise.all(
        round.map(({ command }) =>
          raw.send(
            new command.constructor(structuredClone(command.input)) as unknown as Parameters<
              typeof raw.send
            >[0],
          ),
        ),
      );
    }
  };
  const timed = async (fn: () => Promise<void>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await Promise.all([retrieve(), replay()]);
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const request = await timed(retrieve);
    ratios.push(request / (await timed(replay)));
  }

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < profiled; i++) await retrieve();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
  const busy = new Map<string, number>();
  let total = 0;
  profile.samples?.forEach((id, i) => {
    const part = partOf(nodes.get(id) as ProfileNode);
    if (!part) return;
    const micros = profile.timeDeltas?.[i] ?? 0;
    busy.set(part, (busy.get(part) ?? 0) + micros);
    total += micros;
  });
  raw.destroy();
  return {
    overheadRatio: median(ratios),
    calls: rounds.flat().length,
    roundTrips: rounds.length,
    breakdown: [...busy]
      .map(([part, micros]) => ({ part, share: micros / total }))
      .sort((a, b) => b.share - a.share),
  };
}
