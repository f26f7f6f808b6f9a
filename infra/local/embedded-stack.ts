/**
 * The embedded stack behind `npm start` and the integration tests: the same handlers as in the cloud,
 * served by the local HTTP adapter, on dynalite (with transactions and TTL) and s3rver, with data under
 * DATA_DIR kept across restarts.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureSigningKeyFile } from '#shared/auth/file-token-keys.ts';
import { config, type LocalStackConfig } from '#shared/config/index.ts';
import { OPERATIONS, type OperationName } from '#shared/http/routes.ts';
import type { HttpHandler } from '#shared/http/types.ts';
import { ensureBucket, ensureTable } from './ensure-resources.ts';
import { answerMalformedRequest, createHttpAdapter } from './http-adapter.ts';
import { type LocalDynamoDb, startLocalDynamoDb } from './local-dynamodb.ts';
import { startLocalS3 } from './local-s3.ts';

export const LOCAL_TABLE_NAME = 'content-repository';
export const LOCAL_BUCKET_NAME = 'content-repository';

const projectRoot = resolve(import.meta.dirname, '..', '..');

export type EmbeddedStackOptions = LocalStackConfig & { logLevel?: 'info' | 'silent' };

export interface EmbeddedStack {
  /** e.g. http://127.0.0.1:3000 (the API is under /api/v1). */
  url: string;
  port: number;
  dynamoDb: LocalDynamoDb;
  bootstrap: import('#shared/services/bootstrap.ts').BootstrapResult;
  close(): Promise<void>;
}

export async function startEmbeddedStack(options: EmbeddedStackOptions): Promise<EmbeddedStack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const dynamoDb = await startLocalDynamoDb({ dataDir, ttlSweepSeconds: options.ttlSweepSeconds });
  const s3 = await startLocalS3({ dataDir });
  const signingKeyFile = join(dataDir, 'token-signing-key.pem');
  ensureSigningKeyFile(signingKeyFile);

  // What the CDK stack gives each function as environment variables, pointed at the embedded services.
  Object.assign(process.env, {
    TABLE_NAME: LOCAL_TABLE_NAME,
    BUCKET_NAME: LOCAL_BUCKET_NAME,
    DYNAMODB_ENDPOINT: dynamoDb.endpoint,
    S3_ENDPOINT: s3.endpoint,
    TOKEN_SIGNING_KEY_FILE: signingKeyFile,
    TOKEN_SIGNING_KEY_ID: '',
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    LOG_LEVEL: options.logLevel ?? process.env.LOG_LEVEL ?? 'info',
  });
  await ensureTable(dynamoDb.endpoint, LOCAL_TABLE_NAME);
  await ensureBucket(s3.endpoint, LOCAL_BUCKET_NAME);

  // Imported only now: the data layer reads its configuration when first loaded.
  const { bootstrapInstallation } = await import('#shared/services/bootstrap.ts');
  const bootstrap = await bootstrapInstallation({
    username: options.adminUsername,
    password: options.adminPassword,
  });

  const handlers = new Map<OperationName, Promise<HttpHandler>>();
  const loadHandler = (operation: OperationName) => {
    let handler = handlers.get(operation);
    if (!handler) {
      const entry = pathToFileURL(join(projectRoot, OPERATIONS[operation].entry)).href;
      handler = import(entry).then((module: { handler: HttpHandler }) => module.handler);
      handlers.set(operation, handler);
    }
    return handler;
  };
  const server = http.createServer(createHttpAdapter(loadHandler, config().corsOrigins));
  server.on('clientError', answerMalformedRequest);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${host}:${port}`,
    port,
    dynamoDb,
    bootstrap,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await s3.close();
      await dynamoDb.close();
    },
  };
}
