import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default leaves a core idle (CPUs - 1): one worker on a 2-core CI machine. The files are
    // independent (each starts its own embedded stack), so every core takes files: 582 s -> 392 s here.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Unit tests see a cloud-like configuration; the embedded stack replaces it for integration tests.
    env: {
      TABLE_NAME: 'unit-test-table',
      BUCKET_NAME: 'unit-test-bucket',
      TOKEN_SIGNING_KEY_ID: 'arn:aws:kms:us-east-1:111111111111:key/unit-test',
      AWS_REGION: 'us-east-1',
      LOG_LEVEL: 'silent',
    },
  },
});
