/**
 * The embedded stack for benchmarks, in this process, with the request log lines captured: each line
 * carries the DynamoDB capacity its request consumed (consumedRCU, consumedWCU).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedStack, startEmbeddedStack } from '#infra/local/embedded-stack.ts';
import { ApiClient } from '../integration/helpers/test-stack.ts';

export interface RequestLine {
  operation: string;
  status: number;
  consumedRCU: number;
  consumedWCU: number;
  dynamoCalls: number;
  dynamoRoundTrips: number;
}

/** One stream batch the change recorder handled. */
export interface RecorderLine {
  records: number;
  recorded: number;
  consumedRCU: number;
  consumedWCU: number;
}

/** The change feed's settle window on the bench stack: short, so feed figures need no long waits. */
export const BENCH_SETTLE_MS = 200;

export interface BenchStack {
  api: ApiClient;
  /** The embedded stack itself (its configuration, its background jobs). */
  stack: EmbeddedStack;
  token: string;
  /** The change recorder's log lines so far (one per stream batch). */
  recorderLines: () => RecorderLine[];
  /** The log line of the request made last. */
  lastLine: () => RequestLine;
  close: () => Promise<void>;
}

export async function startBenchStack(name: string): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const lines: RequestLine[] = [];
  const recorded: RecorderLine[] = [];
  const log = console.log;
  console.log = (line: unknown) => {
    if (typeof line !== 'string' || !line.startsWith('{')) return log(line);
    const parsed = JSON.parse(line);
    // The change recorder logs as its stream batches arrive, between requests: kept apart, and so are the
    // webhook dispatcher's lines.
    if (parsed.operation === 'recordChanges') recorded.push(parsed);
    else if (parsed.operation !== 'dispatchWebhooks') lines.push(parsed);
  };
  const stack = await startEmbeddedStack({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminUsername: 'bench',
    adminPassword: 'bench-password-123',
    ttlSweepSeconds: 3600,
    logLevel: 'info',
    // Every request reads its session, as on an instance that has not seen the caller in the last seconds:
    // the figures are the worst case (a warm instance saves the session read, README "Login").
    sessionRecheckSeconds: 0,
    changesSettleMs: BENCH_SETTLE_MS,
    // The webhook bench's receiver listens on this machine.
    webhookAllowLoopback: true,
  });
  const api = new ApiClient(stack.url);
  const token = await api.login('bench', 'bench-password-123');
  return {
    api,
    stack,
    token,
    recorderLines: () => recorded,
    lastLine: () => {
      const line = lines.at(-1);
      if (!line) throw new Error('no request was logged');
      return line;
    },
    close: async () => {
      console.log = log;
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
