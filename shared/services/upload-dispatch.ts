/** Starting an upload's assembly in the background: the assembly function, invoked asynchronously. */
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';

/** Which upload to assemble: the assembly function's event. */
export interface AssemblyJob {
  principalId: string;
  uploadKey: string;
}

/** Hands the assembly to the assembly function, asynchronously (Lambda retries it twice on failure). */
export async function assembleInBackground(job: AssemblyJob): Promise<void> {
  const functionName = config().assembleUploadFunction;
  if (!functionName)
    throw new Error('ASSEMBLE_UPLOAD_FUNCTION is not set: large uploads cannot be assembled');
  // The Lambda client loads with the first request that starts an assembly: most chunk and status
  // requests never do, and every cold start would parse it.
  const { invokeAsynchronously } = await import('#shared/clients/lambda.ts');
  try {
    await invokeAsynchronously(functionName, job);
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
    if (status === 429 || status >= 500 || (error as { $retryable?: unknown }).$retryable) {
      throw new ServiceUnavailableError('The file could not be handed to assembly yet; retry');
    }
    throw error;
  }
}
