/**
 * The region of a deployed stage, for tools that run on a developer's machine or in CI against it
 * (`npm run bootstrap:stage`). Every client such a tool makes must use this one region: the stack is
 * looked up there, and its table and bucket are written there. The functions themselves never need it:
 * in Lambda AWS_REGION is always set (shared/config reads it).
 */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';

/** Where `cdk deploy` puts a stack when nothing names a region (the CDK CLI's own fallback). */
const CDK_FALLBACK_REGION = 'us-east-1';

/**
 * Resolves the region once, as the CDK CLI resolves the one it deploys to: `explicit` (AWS_REGION, else
 * AWS_DEFAULT_REGION: shared/config's readBootstrapConfig), else the SDK's default region provider (the
 * profile's `region` in the shared config files: AWS_PROFILE, AWS_CONFIG_FILE, ~/.aws/config), else
 * us-east-1. The SDK alone ignores AWS_DEFAULT_REGION and has no fallback, and the service configuration
 * alone reads only the environment: asked separately, the stack and its data could be looked for in two
 * regions.
 */
export async function resolveStageRegion(explicit: string | undefined): Promise<string> {
  if (explicit) return explicit;
  try {
    return await new CloudFormationClient({}).config.region();
  } catch (error) {
    // The SDK's provider chain found no region anywhere: the CLI deployed to its fallback then.
    if (/region is missing/i.test((error as Error).message)) return CDK_FALLBACK_REGION;
    throw error;
  }
}
