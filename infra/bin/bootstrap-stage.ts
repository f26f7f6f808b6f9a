/**
 * One-off bootstrap of a deployed stage: creates its first system administrator and the environment
 * "Default" (what `npm start` does on the first local start). Run with AWS credentials for the
 * stage's account:
 *   ADMIN_USERNAME=admin ADMIN_PASSWORD='…' npm run bootstrap:stage -- --stage pr-42
 * Without ADMIN_PASSWORD a password is generated and printed once.
 */
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { readBootstrapConfig, readServiceConfig, withConfig } from '#shared/config/index.ts';
import { bootstrapInstallation } from '#shared/services/bootstrap.ts';
import { resolveStageRegion } from '../stage-region.ts';

const { values } = parseArgs({ options: { stage: { type: 'string' } } });
if (!values.stage) {
  console.error('Usage: npm run bootstrap:stage -- --stage NAME');
  process.exit(2);
}
const stackName = `ContentRepository-${values.stage}`;
const admin = readBootstrapConfig();
// One region for every client: the stack is looked up where its table and bucket are written.
const region = await resolveStageRegion(admin.region);
const { Stacks } = await new CloudFormationClient({ region })
  .send(new DescribeStacksCommand({ StackName: stackName }))
  .catch((error: Error) => {
    // "Stack with id … does not exist": say where it was looked for.
    throw new Error(`${stackName} in ${region}: ${error.message}`, { cause: error });
  });
const outputs = Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
for (const key of ['TableName', 'BucketName', 'TokenSigningKeyArn']) {
  if (!outputs[key]) throw new Error(`Stack ${stackName} (${region}) has no output ${key}; deploy it first`);
}
// The settings the stage's functions get from the stack.
const stageConfig = readServiceConfig({
  TABLE_NAME: outputs.TableName,
  BUCKET_NAME: outputs.BucketName,
  TOKEN_SIGNING_KEY_ID: outputs.TokenSigningKeyArn,
  AWS_REGION: region,
});
const result = await withConfig(stageConfig, () =>
  bootstrapInstallation({ username: admin.adminUsername, password: admin.adminPassword }),
);
if (!result.created) {
  console.log(`${stackName} (${region}) was bootstrapped before; nothing changed.`);
} else {
  console.log(
    `${stackName} (${region}): created the system administrator "${result.adminUsername}" and the environment "Default".`,
  );
  if (result.generatedPassword)
    console.log(`Generated password (shown only now): ${result.generatedPassword}`);
  console.log(`API: ${outputs.ApiUrl}/api/v1`);
}
