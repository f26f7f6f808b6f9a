/**
 * Functions no route reaches: started by an operation with an asynchronous invoke, for work longer than
 * a request may take. The stack builds them like operations' functions; the embedded stack runs them
 * in-process behind its own Invoke API.
 */
import { FILE_PREFIX, UPLOAD_CHUNK_PREFIX } from '#shared/data/storage-layout.ts';
import { type FunctionDeclaration, NO_BUCKET } from './operation.ts';

export const BACKGROUND_JOBS = {
  /** Streams a large upload's chunks into one file (S3 multipart), with its size and SHA-256. */
  assembleUpload: {
    name: 'assembleUpload',
    handler: 'functions/uploads/assemble-upload.ts',
    access: {
      table: 'readWrite',
      bucket: { read: [UPLOAD_CHUNK_PREFIX], write: [UPLOAD_CHUNK_PREFIX, FILE_PREFIX], tag: [FILE_PREFIX] },
      signsTokens: false,
      verifiesTokens: false,
    },
    memoryMb: 512,
    // Lambda's limit: a 2 GiB file streams through in a few minutes.
    timeoutSeconds: 900,
  },
} as const satisfies Record<string, FunctionDeclaration>;

export type BackgroundJobName = keyof typeof BACKGROUND_JOBS;

/** The environment variable that tells a function the deployed name of a job's function. */
export const JOB_FUNCTION_VARIABLE: Record<BackgroundJobName, string> = {
  assembleUpload: 'ASSEMBLE_UPLOAD_FUNCTION',
};

/**
 * The function on the table's stream: records the change feed from every committed write
 * (shared/services/change-recorder.ts). The stack attaches it to the stream; the embedded stack feeds it
 * from its local stream.
 */
export const CHANGE_RECORDER = {
  name: 'recordChanges',
  handler: 'functions/changes/record-changes.ts',
  access: { table: 'readWrite', bucket: NO_BUCKET, signsTokens: false, verifiesTokens: false },
  memoryMb: 256,
  // A batch of 100 records is a few seconds of puts; a slow one is retried by the stream, not cut.
  timeoutSeconds: 120,
} as const satisfies FunctionDeclaration;
