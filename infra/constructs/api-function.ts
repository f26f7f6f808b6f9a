/**
 * The one construct that gives every operation's function its defaults: Node.js 22 on arm64, an ESM
 * bundle (minified, tree-shaken, AWS SDK included, no source maps), its own log group with retention,
 * its own role, and exactly the grants its route-table entry asks for.
 */
import { join } from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import {
  type ICommandHooks,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { JOB_FUNCTION_VARIABLE } from '#shared/api/background-jobs.ts';
import type { FunctionDeclaration } from '#shared/api/operation.ts';
import { BUNDLED_ASSET_DIR, REFERENCE_ASSET_FILES } from '#shared/api/reference-assets.ts';
import { TABLE_SCHEMA } from '#shared/data/table-schema.ts';
import { FUNCTION_BUNDLING } from '../bundling.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/** Swagger UI's files go next to the bundle of the function that serves them. */
const copyReferenceAssets: ICommandHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) => {
    const from = join(inputDir, 'node_modules', 'swagger-ui-dist');
    const to = join(outputDir, BUNDLED_ASSET_DIR);
    return [
      `mkdir -p "${to}"`,
      ...Object.keys(REFERENCE_ASSET_FILES).map((file) => `cp "${join(from, file)}" "${to}/"`),
    ];
  },
};

export interface ApiFunctionProps {
  /** An operation's function, or a background job's. */
  operation: FunctionDeclaration;
  /** The functions of the background jobs the operation starts (access.invokes), by job name. */
  jobs?: Partial<Record<string, IFunction>>;
  table: ITable;
  bucket: IBucket;
  signingKey: IKey;
  environment: Record<string, string>;
  /** The stack's one log group: Lambda names each stream after its function. */
  logGroup: ILogGroup;
}

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { operation, table, bucket, signingKey } = props;
    const invoked = (operation.access.invokes ?? []).map((job) => {
      const fn = props.jobs?.[job];
      if (!fn)
        throw new Error(`${operation.name} starts the background job ${job}, which the stack has not built`);
      return { job, fn };
    });
    const jobVariables = Object.fromEntries(
      invoked.map(({ job, fn }) => [JOB_FUNCTION_VARIABLE[job], fn.functionName]),
    );
    const { logGroup } = props;
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Content Repository ${operation.name}`,
    });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, operation.handler),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: operation.memoryMb ?? 512,
      timeout: Duration.seconds(operation.timeoutSeconds ?? 29),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: { ...props.environment, ...jobVariables },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: FUNCTION_BUNDLING.target,
        minify: FUNCTION_BUNDLING.minify,
        sourceMap: true,
        sourceMapMode: SourceMapMode.EXTERNAL,
        sourcesContent: FUNCTION_BUNDLING.sourcesContent,
        mainFields: [...FUNCTION_BUNDLING.mainFields],
        banner: FUNCTION_BUNDLING.banner,
        esbuildArgs: Object.fromEntries(
          Object.entries(FUNCTION_BUNDLING.alias).map(([from, to]) => [`--alias:${from}`, to]),
        ),
        bundleAwsSDK: true,
        ...(operation.servesReferenceAssets ? { commandHooks: copyReferenceAssets } : {}),
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime this service is built, bundled (target node22) and tested for; moving to a newer ' +
        'runtime is a deliberate change made together with its tests.',
    });

    const { access } = operation;
    // Explicit actions on this table and its named indexes: no wildcards, no Scan.
    const tableResources = [
      table.tableArn,
      ...TABLE_SCHEMA.indexes.map((i) => `${table.tableArn}/index/${i.indexName}`),
    ];
    if (access.table !== 'none') {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: [...TABLE_READ_ACTIONS, ...(access.table === 'readWrite' ? TABLE_WRITE_ACTIONS : [])],
          resources: tableResources,
        }),
      );
    }
    if (access.verifiesTokens && access.table !== 'readWrite') {
      // Read-only operations still record session activity and end expired sessions: SESSION# items only.
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] } },
        }),
      );
    }
    // Object actions on the key prefixes the operation names, never the whole bucket and never s3:List*.
    const objectGrants = [
      { actions: ['s3:GetObject'], prefixes: access.bucket.read },
      // PutObject covers the calls of a multipart upload; AbortMultipartUpload cleans up a failed one.
      {
        actions: ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        prefixes: access.bucket.write,
      },
      { actions: ['s3:PutObjectTagging'], prefixes: access.bucket.tag },
    ];
    for (const { actions, prefixes } of objectGrants) {
      if (prefixes.length === 0) continue;
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions,
          resources: prefixes.map((prefix) => `${bucket.bucketArn}/${prefix}*`),
        }),
      );
    }
    const bucketId = Stack.of(this).resolve((bucket.node.defaultChild as CfnBucket).logicalId);
    for (const prefix of new Set([...access.bucket.read, ...access.bucket.write, ...access.bucket.tag])) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason:
          `Object keys under ${prefix} are made per process and per file (storage-layout.ts); the grant is ` +
          'limited to that prefix of this bucket and to object actions.',
      });
    }
    if (invoked.length > 0) {
      // The functions themselves, not their versions (grantInvoke would add `<arn>:*`).
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['lambda:InvokeFunction'],
          resources: invoked.map(({ fn }) => fn.functionArn),
        }),
      );
    }
    // Verifying needs no grant: the public key is in TOKEN_PUBLIC_KEY (token-public-key.ts).
    if (access.signsTokens) signingKey.grant(role, 'kms:Sign');
  }
}
