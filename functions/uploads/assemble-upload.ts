/**
 * The assembly function (a background job, invoked asynchronously): streams a large upload's chunks into
 * its file. A fault worth retrying is thrown, so Lambda tries again (twice); any other outcome is recorded
 * on the upload, where its uploader reads it.
 */
import type { Context } from 'aws-lambda';
import { type AssemblyJob, assembleUpload } from '#shared/services/upload-assembly.ts';

export async function handler(job: AssemblyJob, context?: Pick<Context, 'awsRequestId'>): Promise<void> {
  const started = Date.now();
  const outcome = await assembleUpload(job, 'background');
  console.log(
    JSON.stringify({
      operation: 'assembleUpload',
      requestId: context?.awsRequestId,
      uploadKey: job.uploadKey,
      outcome,
      latencyMs: Date.now() - started,
    }),
  );
  if (outcome === 'retry') throw new Error('The file store or table was busy; Lambda retries the assembly');
}
