/** Targeted assertions on the synthesized template of one stage. */

import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageSettings } from '#infra/stage.ts';
import { BACKGROUND_JOBS } from '#shared/api/background-jobs.ts';
import { OPERATION_LIST } from '#shared/api/operations/index.ts';
import { LIST_INDEXES, LIST_PROJECTED_ATTRIBUTES } from '#shared/data/list-indexes.ts';
import { ROUTES } from '#shared/http/routes.ts';
import { synthesize } from '../fixtures/synth.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;

let dev: Template;
let prod: Template;
beforeAll(() => {
  dev = synthesize({ stage: 'pr-42' }).template;
  prod = synthesize({ stage: 'prod' }).template;
});

function resources(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

describe('API', () => {
  it('has exactly the routes of the route table plus the $default fallback', () => {
    const routeKeys = Object.values(resources(dev, 'AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    expect(routeKeys.sort()).toEqual([...ROUTES.map((r) => `${r.method} ${r.path}`), '$default'].sort());
  });

  it('throttles the default stage and writes access logs', () => {
    dev.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: Match.anyValue() },
    });
    const custom = synthesize({ stage: 'trial-1', throttleRate: '5', throttleBurst: '10' }).template;
    custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
  });
});

describe('functions', () => {
  it('one Node.js 22 arm64 function per operation, per background job and per stream or queue consumer, logging to one log group with retention', () => {
    const functions = Object.values(resources(dev, 'AWS::Lambda::Function'));
    const ours = functions.filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
    // The change recorder, the webhook dispatcher and the webhook deliverer besides.
    expect(ours).toHaveLength(OPERATION_LIST.length + Object.keys(BACKGROUND_JOBS).length + 3);
    expect(new Set(ours.map((f) => JSON.stringify(f.Properties.LoggingConfig.LogGroup))).size).toBe(1);
    for (const fn of ours) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
      expect(fn.Properties.Role).toBeDefined();
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', LogGroup: expect.anything() });
    }
    for (const group of Object.values(resources(dev, 'AWS::Logs::LogGroup'))) {
      expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  it("runs the custom resource providers' functions on the stack's log group too: a stage leaves no log group behind", () => {
    for (const [template, deletion] of [
      [dev, 'Delete'],
      [prod, 'Retain'],
    ] as const) {
      const groups = resources(template, 'AWS::Logs::LogGroup');
      const functionLogs = Object.keys(groups).find((id) => id.startsWith('FunctionLogs'));
      const functions = Object.entries(resources(template, 'AWS::Lambda::Function'));
      // The token public key's reader everywhere; the buckets' object deleter where buckets are emptied.
      const providers = functions.filter(([id]) => /CustomResourceProviderHandler/.test(id));
      expect(providers.length).toBe(template === dev ? 2 : 1);
      // Without LoggingConfig, Lambda makes a /aws/lambda/… group that no stack owns and nothing expires.
      for (const [, fn] of functions) {
        expect(fn.Properties.LoggingConfig?.LogGroup).toEqual({ Ref: functionLogs });
      }
      // The stack's groups are the only ones, each with retention, and go with an ephemeral stage.
      expect(Object.keys(groups)).toHaveLength(2);
      for (const group of Object.values(groups)) {
        expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
        expect(group.DeletionPolicy).toBe(deletion);
      }
    }
    const autoDelete = Object.keys(resources(dev, 'AWS::Lambda::Function')).filter((id) =>
      id.startsWith('CustomS3AutoDeleteObjects'),
    );
    expect(autoDelete).toHaveLength(1);
  });

  it('shares a role only among operations granted the same access; stream and queue consumers have their own', () => {
    const roleOf = (name: string) => JSON.stringify(functionNamed(name).Properties.Role);
    // Same access (read the table, a session): one role.
    expect(roleOf('GetNode')).toBe(roleOf('ListNodes'));
    expect(roleOf('GetNode')).toBe(roleOf('ListChanges'));
    // Different access: different roles.
    expect(roleOf('GetNode')).not.toBe(roleOf('CreateNode'));
    expect(roleOf('CreateNode')).not.toBe(roleOf('UpdateWebhook'));
    expect(roleOf('Login')).not.toBe(roleOf('Logout'));
    expect(roleOf('ReplayWebhookDelivery')).not.toBe(roleOf('UpdateWebhook'));
    const consumers = ['RecordChanges', 'DispatchWebhooks', 'DeliverWebhooks'].map(roleOf);
    const others = OPERATION_LIST.map((op) => roleOf(`${op.name[0]?.toUpperCase()}${op.name.slice(1)}`));
    expect(new Set(consumers).size).toBe(3);
    for (const consumer of consumers) expect(others).not.toContain(consumer);
  });
});

/** The function whose construct is named `name` (its logical id starts with `<name>Function`). */
function functionNamed(name: string, template: Template = dev) {
  const found = Object.entries(resources(template, 'AWS::Lambda::Function')).find(([id]) =>
    id.startsWith(`${name}Function`),
  );
  if (!found) throw new Error(`no function ${name}`);
  return found[1];
}

const policies = () => Object.entries(resources(dev, 'AWS::IAM::Policy'));
/** The role a function runs with (its logical id). */
const roleIdOf = (functionName: string) =>
  (functionNamed(functionName).Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
/** The statements of the policies on the role of a function (`<Function>Role`, e.g. GetNodeRole). */
const statementsOf = (functionRole: string) => {
  const roleId = roleIdOf(functionRole.replace(/Role$/, ''));
  return policies()
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
};
const actions = (s: any) => [s.Action].flat();

describe('least privilege', () => {
  it('grants no wildcard resources and no wildcard actions', () => {
    for (const [, policy] of policies()) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        // No "*", and no "<arn>/*" (a whole bucket); a named key prefix ("<arn>/bpmn/*") is allowed.
        // The one exception: dynamodb:ListStreams, which has no resource-level permissions.
        if (JSON.stringify(actions(statement)) === '["dynamodb:ListStreams"]') continue;
        expect(JSON.stringify(statement.Resource)).not.toMatch(/"\*"|"\/\*"/);
        for (const action of actions(statement)) expect(action).not.toMatch(/\*$/);
      }
    }
  });

  it('scopes table access to this table and its named indexes; read-only operations write only SESSION# items', () => {
    const getNode = statementsOf('GetNodeRole');
    const tableStatement = getNode.find((s) => actions(s).includes('dynamodb:GetItem'));
    expect(actions(tableStatement)).not.toContain('dynamodb:PutItem');
    expect(JSON.stringify(tableStatement.Resource)).toContain('Table');
    expect(JSON.stringify(tableStatement.Resource)).toContain('/index/GSI1');
    const sessionWrites = getNode.find((s) => actions(s).includes('dynamodb:UpdateItem'));
    expect(sessionWrites.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] },
    });
    const createNode = statementsOf('CreateNodeRole');
    expect(createNode.flatMap(actions)).toContain('dynamodb:PutItem');
  });

  it('lets only login call KMS, to sign; the others verify with the public key read at deploy time', () => {
    const kmsActions = (role: string) =>
      statementsOf(role)
        .flatMap(actions)
        .filter((a: string) => a.startsWith('kms:'));
    expect(kmsActions('LoginRole')).toEqual(['kms:Sign']);
    for (const role of ['GetNodeRole', 'CreateNodeRole', 'LogoutRole', 'RouteNotFoundRole'])
      expect(kmsActions(role)).toEqual([]);
    const [publicKeyId] = Object.keys(dev.findResources('Custom::TokenPublicKey'));
    const apiFunctions = Object.values(dev.findResources('AWS::Lambda::Function')).filter(
      (f: any) => f.Properties.Environment?.Variables?.TOKEN_SIGNING_KEY_ID,
    );
    expect(apiFunctions.length).toBeGreaterThan(30);
    for (const f of apiFunctions as any[])
      expect(f.Properties.Environment.Variables.TOKEN_PUBLIC_KEY).toEqual({
        'Fn::GetAtt': [publicKeyId, 'PublicKey'],
      });
    const provider = dev.findResources('AWS::IAM::Role', {
      Properties: { Policies: [{ PolicyDocument: { Statement: [{ Action: ['kms:GetPublicKey'] }] } }] },
    });
    expect(Object.keys(provider)).toHaveLength(1);
    expect(
      statementsOf('RouteNotFoundRole')
        .flatMap(actions)
        .filter((a: string) => a.startsWith('dynamodb:')),
    ).toEqual([]);
  });

  it('grants object actions only under the key prefix an operation names, and no bucket access otherwise', () => {
    const s3Statements = (role: string) =>
      statementsOf(role).filter((s) => actions(s).some((a: string) => a.startsWith('s3:')));
    const grants = (role: string) =>
      s3Statements(role).map((s) => ({ actions: actions(s).sort(), resource: JSON.stringify(s.Resource) }));
    expect(grants('ExportBpmnRole')).toEqual([
      { actions: ['s3:GetObject'], resource: expect.stringContaining('"/bpmn/*"') },
    ]);
    expect(grants('ImportBpmnRole')).toEqual([
      {
        actions: ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:PutObject'],
        resource: expect.stringContaining('"/bpmn/*"'),
      },
    ]);
    // Uploads: chunks read and written, files written and tagged; downloads read files; attaching tags them.
    expect(grants('ReceiveChunkRole')).toEqual([
      { actions: ['s3:GetObject'], resource: expect.stringContaining('"/chunks/*"') },
      {
        actions: ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:PutObject'],
        resource: expect.stringMatching(/"\/chunks\/\*".*"\/files\/\*"/),
      },
      { actions: ['s3:PutObjectTagging'], resource: expect.stringContaining('"/files/*"') },
    ]);
    expect(grants('DownloadFileRole')).toEqual([
      { actions: ['s3:GetObject'], resource: expect.stringContaining('"/files/*"') },
    ]);
    for (const role of ['CreateNodeRole', 'UpdateNodeRole'])
      expect(grants(role)).toEqual([
        { actions: ['s3:PutObjectTagging'], resource: expect.stringContaining('"/files/*"') },
      ]);
    // A purge removes documents' files and processes' BPMN files.
    expect(grants('PurgeTrashRole')).toEqual([
      {
        actions: ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:PutObject'],
        resource: expect.stringMatching(/"\/files\/\*".*"\/bpmn\/\*"/),
      },
    ]);
    for (const role of ['GetNodeRole', 'DeleteNodeRole', 'AddProcessNodesRole', 'TestChunkRole'])
      expect(s3Statements(role)).toEqual([]);
  });
});

describe('background jobs', () => {
  it('the upload functions may invoke the assembly function, by its name in their environment, and nothing else may', () => {
    const functions = resources(dev, 'AWS::Lambda::Function');
    const [assemblerId, assembler] =
      Object.entries(functions).find(([id]) => id.startsWith('AssembleUpload')) ?? [];
    expect(assembler?.Properties.Timeout).toBe(900);
    const invokers = OPERATION_LIST.map((op) => `${op.name[0]?.toUpperCase()}${op.name.slice(1)}`)
      .filter((name) => statementsOf(`${name}Role`).some((s) => actions(s).includes('lambda:InvokeFunction')))
      .sort();
    expect(invokers).toEqual(['GetUpload', 'ReceiveChunk']);
    const receiver = Object.entries(functions).find(([id]) => id.startsWith('ReceiveChunk'))?.[1];
    expect(receiver?.Properties.Environment.Variables.ASSEMBLE_UPLOAD_FUNCTION).toEqual({ Ref: assemblerId });
  });

  it('expires abandoned chunks and files no document took, by the lifecycle rules of storage-layout.ts', () => {
    dev.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Prefix: 'files/',
            TagFilters: [{ Key: 'upload', Value: 'unattached' }],
            ExpirationInDays: 8,
          }),
        ]),
      },
    });
  });
});

describe('table', () => {
  it('has the shared key schema, GSIs, on-demand billing and the TTL attribute', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAtEpoch', Enabled: true },
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'GSI1',
          KeySchema: [
            { AttributeName: 'GSI1PK', KeyType: 'HASH' },
            { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
          ],
        }),
        Match.objectLike({
          IndexName: 'GSI2',
          KeySchema: [
            { AttributeName: 'GSI2PK', KeyType: 'HASH' },
            { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
          ],
        }),
        // The list indexes: keys plus the attributes list filters read, never the whole item.
        ...LIST_INDEXES.map((index) =>
          Match.objectLike({
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...LIST_PROJECTED_ATTRIBUTES] },
          }),
        ),
      ],
    });
  });

  it('keeps production data (retain, PITR, deletion protection) and lets ephemeral stages go', () => {
    const [prodTable] = Object.values(resources(prod, 'AWS::DynamoDB::Table'));
    expect(prodTable?.DeletionPolicy).toBe('Retain');
    expect(prodTable?.Properties).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const [devTable] = Object.values(resources(dev, 'AWS::DynamoDB::Table'));
    expect(devTable?.DeletionPolicy).toBe('Delete');
    expect(devTable?.Properties.DeletionProtectionEnabled).toBe(false);
  });
});

describe('bucket', () => {
  it('blocks public access, is encrypted, access-logged and expires abandoned chunks and multipart uploads', () => {
    dev.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'uploads/' }),
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
          // An upload takes chunks for at most 2 days from its first (UPLOAD_RETENTION): they outlive it.
          Match.objectLike({ Prefix: 'chunks/', ExpirationInDays: 3, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('refuses requests without TLS', () => {
    const policies = Object.values(resources(dev, 'AWS::S3::BucketPolicy'));
    expect(policies.length).toBeGreaterThanOrEqual(2);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
  });
});

describe('signing key', () => {
  it('is an asymmetric P-256 signing key', () => {
    dev.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
  });
});

/** A CDK context that answers these options (strings, as `-c key=value` gives them). */
const contextOf = (options: Record<string, string>) => (key: string) => options[key];

describe('stages', () => {
  it('refuses malformed stage names', () => {
    expect(() => synthesize({ stage: 'Prod_1' })).toThrow(/lower-case letters/);
  });

  it('refuses session settings the functions would refuse at every request, and takes sessionRecheck=0', () => {
    expect(() => stageSettings(contextOf({ sessionTimeout: '5000' }))).toThrow(
      /sessionTimeout must be a whole number from 1 to 1440/,
    );
    expect(() => stageSettings(contextOf({ webTokenExpiresIn: '60' }))).toThrow(/webTokenExpiresIn/);
    expect(() => stageSettings(contextOf({ sessionRecheck: '120' }))).toThrow(/sessionRecheck/);
    expect(() => stageSettings(contextOf({ sessionRecheck: '' }))).toThrow(/sessionRecheck/);
    expect(stageSettings(contextOf({ sessionRecheck: '0' })).sessionRecheckSeconds).toBe(0);
  });

  it('refuses throttling API Gateway would refuse at deploy time: a burst is a whole number, a rate may be a fraction', () => {
    expect(() => synthesize({ stage: 'pr-7', throttleBurst: '1.5' })).toThrow(
      /Context throttleBurst must be a whole number from 1 to 2147483647, got "1.5"/,
    );
    for (const burst of ['0', '-5', '', 'lots', '3000000000'])
      expect(() => stageSettings(contextOf({ throttleBurst: burst }))).toThrow(/throttleBurst/);
    for (const rate of ['0', '-1', '', 'fast', 'Infinity'])
      expect(() => stageSettings(contextOf({ throttleRate: rate }))).toThrow(
        /Context throttleRate must be a positive number/,
      );
    const settings = stageSettings(contextOf({ throttleRate: '0.5', throttleBurst: '1' }));
    expect(settings).toMatchObject({ throttleRate: 0.5, throttleBurst: 1 });
  });

  it('reads retainData as true or false in any case, and refuses anything else', () => {
    expect(stageSettings(contextOf({ stage: 'prod', retainData: 'FALSE' })).ephemeral).toBe(true);
    expect(stageSettings(contextOf({ stage: 'pr-7', retainData: 'True' })).ephemeral).toBe(false);
    expect(() => stageSettings(contextOf({ stage: 'prod', retainData: 'yes' }))).toThrow(
      /retainData must be true or false/,
    );
  });
});

describe('CORS', () => {
  it('configures API Gateway CORS from the stage allow-list only when one is given', () => {
    const withCors = synthesize({ stage: 'portal', corsOrigins: 'https://portal.example.com' }).template;
    withCors.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['https://portal.example.com'],
        AllowCredentials: true,
        AllowHeaders: Match.arrayWith(['authorization', 'if-match', 'range', 'if-range']),
      }),
    });
    const fn = Object.values(withCors.findResources('AWS::Lambda::Function')).find(
      (f: any) => f.Properties.Environment?.Variables?.TABLE_NAME,
    ) as any;
    expect(fn.Properties.Environment.Variables.CORS_ORIGINS).toBe('https://portal.example.com');
    const [api] = Object.values(dev.findResources('AWS::ApiGatewayV2::Api')) as any[];
    expect(api.Properties.CorsConfiguration).toBeUndefined();
    expect(() => synthesize({ stage: 'bad', corsOrigins: 'portal.example.com/path' })).toThrow(
      /not an origin/,
    );
  });
});

describe('change feed', () => {
  it("records from the table's stream: in order, retried, a bad batch parked in a queue", () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    const [queueId] = Object.keys(dev.findResources('AWS::SQS::Queue')).filter((id) =>
      id.startsWith('ParkedChangeBatches'),
    );
    const mappings = Object.values(resources(dev, 'AWS::Lambda::EventSourceMapping')).filter((m) =>
      JSON.stringify(m.Properties.FunctionName).includes('RecordChanges'),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties.FilterCriteria).toBeUndefined();
    expect(mappings[0]?.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    const recorder = JSON.stringify(mappings[0]?.Properties.FunctionName);
    expect(recorder).toContain('RecordChanges');
  });
});

describe('webhooks', () => {
  const mappingOf = (name: string) =>
    Object.values(resources(dev, 'AWS::Lambda::EventSourceMapping')).find((m) =>
      JSON.stringify(m.Properties.FunctionName).includes(name),
    );
  /** A queue's logical id: its construct's name and CDK's hash. */
  const queueId = (name: string) =>
    Object.keys(dev.findResources('AWS::SQS::Queue')).find((id) =>
      new RegExp(`^${name}[0-9A-F]{8}$`).test(id),
    ) as string;

  it('dispatches from the stream only the change feed’s new items, with the recorder’s retries and parking', () => {
    expect(mappingOf('DispatchWebhooks')?.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [queueId('ParkedChangeBatches'), 'Arn'] } },
      },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { PK: { S: [{ prefix: 'CHANGES#' }] } } },
            }),
          },
        ],
      },
    });
  });

  it('delivers from a queue with a dead-letter queue, reporting failed messages one by one', () => {
    const deliveries = queueId('WebhookDeliveries');
    dev.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [queueId('WebhookDeliveriesDead'), 'Arn'] },
        maxReceiveCount: 5,
      },
      VisibilityTimeout: 360,
      SqsManagedSseEnabled: true,
    });
    expect(mappingOf('DeliverWebhooks')?.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [deliveries, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('lets only the dispatcher, the deliverer and the replay send to the delivery queue, by its URL in their environment', () => {
    const deliveries = queueId('WebhookDeliveries');
    const senders = [
      ...OPERATION_LIST.map((op) => `${op.name[0]?.toUpperCase()}${op.name.slice(1)}`),
      'DispatchWebhooks',
      'DeliverWebhooks',
      'RecordChanges',
    ]
      .filter((name) =>
        statementsOf(`${name}Role`).some(
          (s) => actions(s).includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(deliveries),
        ),
      )
      .sort();
    expect(senders).toEqual(['DeliverWebhooks', 'DispatchWebhooks', 'ReplayWebhookDelivery']);
    for (const name of senders)
      expect(functionNamed(name).Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({
        Ref: deliveries,
      });
    expect(functionNamed('UpdateWebhook').Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toBeUndefined();
  });
});

describe('size', () => {
  it('stays well under CloudFormation’s 500-resource limit', () => {
    // About 6 resources per operation (function, role, policy, integration, permission, route); the
    // functions share one log group.
    const count = Object.keys(dev.toJSON().Resources).length;
    expect(count).toBeLessThan(400);
  });
});
