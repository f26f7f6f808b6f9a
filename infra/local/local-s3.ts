/** The embedded S3: s3rver keeping buckets and objects as files under DATA_DIR. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3FaithfulStore } from './s3rver-store.ts';

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

export async function startLocalS3(options: { dataDir: string; port?: number }): Promise<LocalS3> {
  const directory = join(options.dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory, silent: true });
  // s3rver's own store, answering as S3 does where it differs (s3rver-store.ts).
  const store = new S3FaithfulStore(directory);
  server.store = store;
  server.context.store = store;
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, close: () => server.close() };
}
