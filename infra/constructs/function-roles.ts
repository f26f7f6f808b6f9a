/**
 * The roles of the stack's functions, one per kind of access: functions that the route table grants
 * exactly the same access (the same table access, key prefixes, jobs, queues, token signing) share a role
 * that holds exactly those grants and nothing more. Least privilege holds for each function, and the stack
 * keeps one role and one policy per kind of access instead of per function (DESIGN: "shared role"; about
 * 90 resources fewer, room under CloudFormation's 500). A function that reads an event source (a stream,
 * a queue) gets a role of its own: the event source grants its role what it needs to read.
 */
import { createHash } from 'node:crypto';
import { Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '#shared/api/background-jobs.ts';
import type { OperationAccess } from '#shared/api/operation.ts';
import { TABLE_SCHEMA } from '#shared/data/table-schema.ts';

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

export interface RoleResources {
  table: ITable;
  bucket: IBucket;
  signingKey: IKey;
  logGroup: ILogGroup;
  /** The background jobs' functions, by job name (access.invokes). */
  jobs?: Partial<Record<string, IFunction>>;
  /** The queues, by name (access.sendsTo). */
  queues?: Partial<Record<QueueName, IQueue>>;
}

/** A name that says what a role may do: ReadWrite, Bucket<hash>, InvokesAssembleUpload, … */
function roleName(access: OperationAccess): string {
  const parts: string[] = [
    access.table === 'none' ? 'NoTable' : access.table === 'read' ? 'Read' : 'ReadWrite',
  ];
  const { read, write, tag } = access.bucket;
  if (read.length + write.length + tag.length > 0) {
    const hash = createHash('sha256').update(JSON.stringify(access.bucket)).digest('hex').slice(0, 6);
    parts.push(`Bucket${hash}`);
  }
  for (const job of access.invokes ?? []) parts.push(`Invokes${job[0]?.toUpperCase()}${job.slice(1)}`);
  for (const queue of access.sendsTo ?? []) parts.push(`SendsTo${queue[0]?.toUpperCase()}${queue.slice(1)}`);
  if (access.signsTokens) parts.push('SignsTokens');
  if (!access.verifiesTokens) parts.push('NoSession');
  return `${parts.join('')}Role`;
}

/** Makes a role with exactly the grants `access` names. */
export function roleFor(
  scope: Construct,
  id: string,
  access: OperationAccess,
  resources: RoleResources,
): Role {
  const { table, bucket, signingKey, logGroup } = resources;
  const role = new Role(scope, id, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `Content Repository functions: ${roleName(access).replace(/Role$/, '')}`,
  });
  logGroup.grantWrite(role);
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
  const bucketId = Stack.of(scope).resolve((bucket.node.defaultChild as CfnBucket).logicalId);
  for (const prefix of new Set([...access.bucket.read, ...access.bucket.write, ...access.bucket.tag])) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
      reason:
        `Object keys under ${prefix} are made per process and per file (storage-layout.ts); the grant is ` +
        'limited to that prefix of this bucket and to object actions.',
    });
  }
  const invoked = (access.invokes ?? []).map((job) => {
    const fn = resources.jobs?.[job];
    if (!fn) throw new Error(`A function starts the background job ${job}, which the stack has not built`);
    return fn;
  });
  if (invoked.length > 0) {
    // The functions themselves, not their versions (grantInvoke would add `<arn>:*`).
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['lambda:InvokeFunction'],
        resources: invoked.map((fn) => fn.functionArn),
      }),
    );
  }
  for (const name of access.sendsTo ?? []) {
    const queue = resources.queues?.[name];
    if (!queue) throw new Error(`A function sends to the queue ${name}, which the stack has not built`);
    queue.grantSendMessages(role);
  }
  // Verifying needs no grant: the public key is in TOKEN_PUBLIC_KEY (token-public-key.ts).
  if (access.signsTokens) signingKey.grant(role, 'kms:Sign');
  return role;
}

/** Hands out the shared role of each kind of access, made when first asked for. */
export class FunctionRoles extends Construct {
  private readonly roles = new Map<string, IRole>();

  constructor(
    scope: Construct,
    id: string,
    private readonly resources: RoleResources,
  ) {
    super(scope, id);
  }

  for(access: OperationAccess): IRole {
    const key = JSON.stringify({
      table: access.table,
      bucket: access.bucket,
      invokes: access.invokes ?? [],
      sendsTo: access.sendsTo ?? [],
      signsTokens: access.signsTokens,
      verifiesTokens: access.verifiesTokens,
    });
    let role = this.roles.get(key);
    if (!role) {
      role = roleFor(this, roleName(access), access, this.resources);
      this.roles.set(key, role);
    }
    return role;
  }
}
