/**
 * The embedded stack behind `npm start` and the integration tests: the same handlers as in the cloud,
 * served by the local HTTP adapter, on dynalite (with transactions and TTL) and s3rver, with data under
 * DATA_DIR kept across restarts.
 */
import { mkdirSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  BACKGROUND_JOBS,
  CHANGE_ITEM_FILTER,
  CHANGE_RECORDER,
  JOB_FUNCTION_VARIABLE,
  QUEUES,
  WEBHOOK_DELIVERER,
  WEBHOOK_DISPATCHER,
} from '#shared/api/background-jobs.ts';
import type { Operation, OperationName } from '#shared/api/operations/index.ts';
import { ensureSigningKeyFile } from '#shared/auth/file-token-keys.ts';
import {
  type LocalStackConfig,
  readServiceConfig,
  type ServiceConfig,
  withConfig,
} from '#shared/config/index.ts';
import { OBJECT_EXPIRY_RULES } from '#shared/data/storage-layout.ts';
import type { HttpHandler } from '#shared/http/types.ts';
import { type BootstrapResult, bootstrapInstallation } from '#shared/services/bootstrap.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { StreamRecord } from './dynamodb-stream.ts';
import { ensureBucket, ensureTable } from './ensure-resources.ts';
import { createAdapterServer, createHttpAdapter } from './http-adapter.ts';
import { type LocalDynamoDb, startLocalDynamoDb } from './local-dynamodb.ts';
import { startLocalLambda } from './local-lambda.ts';
import { startLocalS3 } from './local-s3.ts';
import { startLocalS3Lifecycle } from './local-s3-lifecycle.ts';
import { startLocalSqs } from './local-sqs.ts';

export const LOCAL_TABLE_NAME = 'content-repository';
export const LOCAL_BUCKET_NAME = 'content-repository';

const projectRoot = resolve(import.meta.dirname, '..', '..');

/** `npm start`'s settings; tests and benchmarks leave the stage's knobs at their defaults. */
export type EmbeddedStackOptions = Pick<
  LocalStackConfig,
  'port' | 'host' | 'dataDir' | 'adminUsername' | 'adminPassword' | 'ttlSweepSeconds'
> &
  Partial<LocalStackConfig> & {
    /** The change feed's settle window (CHANGES_SETTLE_MS); tests shorten it. */
    changesSettleMs?: number;
    /** Waits before each retry of a failed webhook delivery, seconds (WEBHOOK_RETRY_SECONDS); tests shorten them. */
    webhookRetrySeconds?: readonly number[];
    /** How long a delivery queue message stays hidden after a failed receive (SQS: 30 s); tests shorten it. */
    queueVisibilitySeconds?: number;
  };

export interface EmbeddedStack {
  /** e.g. http://127.0.0.1:3000 (the API is under /api/v1). */
  url: string;
  port: number;
  /** What the stack's functions run with (a deployed function reads the same from its environment). */
  config: ServiceConfig;
  /**
   * Settles when the background work started so far (upload assembly, change recording, webhook dispatch
   * and the delivery attempts due now) has finished; retries scheduled for later are not waited for.
   */
  backgroundIdle(): Promise<void>;
  /** Runs `fn` as this stack's functions run: with its configuration. */
  run<T>(fn: () => T): T;
  dynamoDb: LocalDynamoDb;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

export async function startEmbeddedStack(options: EmbeddedStackOptions): Promise<EmbeddedStack> {
  // The port first: a start that cannot listen (the port taken, a HOST not of this machine) creates
  // nothing, and the administrator, whose generated password is shown once, is not made by a start that
  // then fails. A request that arrives while the services start waits for them.
  let serve: (listener: http.RequestListener) => void = () => undefined;
  const adapter = new Promise<http.RequestListener>((ready) => {
    serve = ready;
  });
  const server = createAdapterServer((req, res) => void adapter.then((listener) => listener(req, res)));
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  let unlockDataDir: () => void;
  try {
    unlockDataDir = lockDataDir(dataDir);
  } catch (error) {
    await new Promise((done) => server.close(done));
    throw error;
  }
  const dynamoDb = await startLocalDynamoDb({
    dataDir,
    ttlSweepSeconds: options.ttlSweepSeconds,
    indexLagMs: options.indexLagMs ?? 0,
    transactionMs: options.transactionMs ?? 0,
  });
  const s3 = await startLocalS3({ dataDir });
  // S3 lifecycle and Lambda's asynchronous invoke, which s3rver and the process lack (see their modules).
  const lifecycle = startLocalS3Lifecycle({
    endpoint: s3.endpoint,
    bucket: LOCAL_BUCKET_NAME,
    rules: OBJECT_EXPIRY_RULES,
    sweepSeconds: options.ttlSweepSeconds,
  });
  const jobs = await startLocalLambda({
    functions: Object.fromEntries(
      Object.values(BACKGROUND_JOBS).map((job) => [
        job.name,
        async (payload: unknown) => {
          const module = (await import(pathToFileURL(join(projectRoot, job.handler)).href)) as {
            handler: (payload: unknown) => Promise<unknown>;
          };
          return module.handler(payload);
        },
      ]),
    ),
    run: (fn) => run(fn),
  });
  /** A background function's handler, loaded when first used (as the operations' are). */
  const background = <E, R>(handler: string) => {
    let loaded: Promise<{ handler: (event: E) => Promise<R> }> | undefined;
    return async (event: E): Promise<R> => {
      loaded ??= import(pathToFileURL(join(projectRoot, handler)).href);
      return (await loaded).handler(event);
    };
  };
  // The functions' configuration names the queue, and the queue's poller calls a function: messages kept
  // from an earlier run, polled at once, wait for the configuration (`run`, below) before they are handled.
  let configured: () => void = () => undefined;
  const ready = new Promise<void>((resolved) => {
    configured = resolved;
  });
  const deliverer = background<SQSEvent, SQSBatchResponse | undefined>(WEBHOOK_DELIVERER.handler);
  const queues = await startLocalSqs({
    dataDir,
    queues: {
      [QUEUES.webhookDeliveries.name]: {
        consumer: async (event) => {
          await ready;
          return run(() => deliverer(event));
        },
        visibilityTimeoutSeconds: options.queueVisibilitySeconds ?? 30,
      },
    },
    run: (fn) => fn(),
  });
  const signingKeyFile = join(dataDir, 'token-signing-key.pem');
  ensureSigningKeyFile(signingKeyFile);

  // What the CDK stack gives each function as environment variables, pointed at the embedded services.
  const config = readServiceConfig({
    TABLE_NAME: LOCAL_TABLE_NAME,
    BUCKET_NAME: LOCAL_BUCKET_NAME,
    DYNAMODB_ENDPOINT: dynamoDb.endpoint,
    S3_ENDPOINT: s3.endpoint,
    LAMBDA_ENDPOINT: jobs.endpoint,
    ...Object.fromEntries(
      Object.values(BACKGROUND_JOBS).map((job) => [JOB_FUNCTION_VARIABLE[job.name], job.name]),
    ),
    UPLOAD_BASE_URL: options.uploadBaseUrl,
    TOKEN_SIGNING_KEY_FILE: signingKeyFile,
    SESSION_TIMEOUT: options.sessionTimeoutMinutes?.toString(),
    SESSION_RECHECK_SECONDS: options.sessionRecheckSeconds?.toString(),
    WEBTOKEN_EXPIRES_IN: options.webTokenExpiresInDays?.toString(),
    LOG_LEVEL: options.logLevel,
    CORS_ORIGINS: options.corsOrigins?.join(','),
    PUBLIC_BASE_URL: options.publicBaseUrl,
    CHANGES_SETTLE_MS: options.changesSettleMs?.toString(),
    SQS_ENDPOINT: queues.endpoint,
    [QUEUES.webhookDeliveries.urlVariable]: queues.queueUrl(QUEUES.webhookDeliveries.name),
    WEBHOOK_ALLOW_LOOPBACK: options.webhookAllowLoopback ? 'true' : undefined,
    WEBHOOK_RETRY_SECONDS: options.webhookRetrySeconds?.join(','),
  });
  const run = <T>(fn: () => T): T => withConfig(config, fn);
  configured();
  // The table's stream feeds the change recorder, and the webhook dispatcher with the feed's new items, as
  // the event source mappings do in the cloud.
  const recorder = background<{ Records: StreamRecord[] }, void>(CHANGE_RECORDER.handler);
  dynamoDb.stream.consume((event) => run(() => recorder(event)));
  const dispatcher = background<{ Records: StreamRecord[] }, void>(WEBHOOK_DISPATCHER.handler);
  dynamoDb.stream.consume((event) => run(() => dispatcher(event)), CHANGE_ITEM_FILTER);
  await ensureTable(dynamoDb.endpoint, LOCAL_TABLE_NAME);
  await ensureBucket(s3.endpoint, LOCAL_BUCKET_NAME);
  const handlers = new Map<OperationName, Promise<HttpHandler>>();
  const loadHandler = (operation: Operation) => {
    let handler = handlers.get(operation.name);
    if (!handler) {
      const entry = pathToFileURL(join(projectRoot, operation.handler)).href;
      handler = import(entry).then((module: { handler: HttpHandler }) => module.handler);
      handlers.set(operation.name, handler);
    }
    return handler;
  };
  serve(createHttpAdapter(loadHandler, config.corsOrigins, run));
  // Idle kept-alive connections stay open a minute (Node's default is 5 s), so clients that pause between
  // requests rarely meet a socket closing under them.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  const closeServices = async () => {
    await jobs.close();
    await lifecycle.close();
    await dynamoDb.stream.drain();
    await queues.close();
    await s3.close();
    await dynamoDb.close();
  };
  const bootstrap = await run(() =>
    bootstrapInstallation({ username: options.adminUsername, password: options.adminPassword }),
  );
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${host}:${port}`,
    port,
    config,
    run,
    backgroundIdle: async () => {
      // Each kind of work can start another (a write's changes are dispatched, then delivered): twice over.
      for (let round = 0; round < 2; round++) {
        await jobs.idle();
        await dynamoDb.stream.drain();
        await queues.idle();
      }
    },
    dynamoDb,
    bootstrap,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await closeServices();
      unlockDataDir();
    },
  };
}
