/**
 * `npm run bootstrap:stage` looks the stack up and writes its table and bucket in one region, resolved as
 * the CDK CLI resolves the region it deployed to: the environment, else the AWS profile's region.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveStageRegion } from '#infra/stage-region.ts';
import { awsClientSettings } from '#shared/clients/aws-client-settings.ts';
import { readBootstrapConfig, readServiceConfig } from '#shared/config/index.ts';
import { scratchDir } from '../fixtures/scratch-dir.ts';

const home = scratchDir('aws-home');
let files = 0;

/** A shared config file of its own (the SDK caches what it read by path), with these profiles. */
function awsConfig(profiles: Record<string, string | undefined>): void {
  const text = Object.entries(profiles)
    .map(([name, region]) => {
      const section = name === 'default' ? '[default]' : `[profile ${name}]`;
      return `${section}\n${region ? `region = ${region}\n` : 'output = json\n'}`;
    })
    .join('');
  const file = join(home, `config-${++files}`);
  writeFileSync(file, text);
  vi.stubEnv('AWS_CONFIG_FILE', file);
}

/** The regions the bootstrap's clients use: the stack's lookup, and the table's and bucket's. */
async function bootstrapRegions() {
  const region = await resolveStageRegion(readBootstrapConfig().region);
  const stage = readServiceConfig({
    TABLE_NAME: 't',
    BUCKET_NAME: 'b',
    TOKEN_SIGNING_KEY_ID: 'arn:aws:kms:eu-west-1:111111111111:key/k',
    AWS_REGION: region,
  });
  return {
    cloudFormation: await new CloudFormationClient({ region }).config.region(),
    tableAndBucket: awsClientSettings(stage, undefined).region,
  };
}

beforeEach(() => {
  // The tests' own AWS_REGION (vitest.config.ts) and whatever the machine running them has set.
  for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_DEFAULT_PROFILE'])
    vi.stubEnv(name, undefined);
  vi.stubEnv('HOME', home);
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(home, 'no-credentials'));
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the region of a deployed stage', () => {
  it("is the profile's when the environment names none, for the stack and for its table and bucket", async () => {
    awsConfig({ default: 'eu-west-1' });
    expect(await bootstrapRegions()).toEqual({ cloudFormation: 'eu-west-1', tableAndBucket: 'eu-west-1' });
  });

  it('follows AWS_PROFILE', async () => {
    awsConfig({ default: 'eu-west-1', ops: 'ap-southeast-2' });
    vi.stubEnv('AWS_PROFILE', 'ops');
    expect(await bootstrapRegions()).toEqual({
      cloudFormation: 'ap-southeast-2',
      tableAndBucket: 'ap-southeast-2',
    });
  });

  it("takes AWS_REGION, then AWS_DEFAULT_REGION, over the profile's, as the CDK CLI does", async () => {
    awsConfig({ default: 'eu-west-1' });
    vi.stubEnv('AWS_DEFAULT_REGION', 'sa-east-1');
    expect(await bootstrapRegions()).toEqual({ cloudFormation: 'sa-east-1', tableAndBucket: 'sa-east-1' });
    vi.stubEnv('AWS_REGION', 'eu-central-1');
    expect(await bootstrapRegions()).toEqual({
      cloudFormation: 'eu-central-1',
      tableAndBucket: 'eu-central-1',
    });
  });

  it('is us-east-1 when nothing names one, where the CDK CLI deploys then', async () => {
    awsConfig({ default: undefined });
    expect(await bootstrapRegions()).toEqual({ cloudFormation: 'us-east-1', tableAndBucket: 'us-east-1' });
  });
});
