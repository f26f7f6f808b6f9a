/**
 * One installation of the Content Repository: HTTP API, one function per operation of the route table,
 * the single DynamoDB table, the upload bucket and the KMS key that signs access tokens.
 */
import {
  CfnOutput,
  CfnResource,
  CustomResourceProviderBase,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import {
  BACKGROUND_JOBS,
  CHANGE_ITEM_FILTER,
  CHANGE_RECORDER,
  type QUEUES,
  WEBHOOK_DELIVERER,
  WEBHOOK_DISPATCHER,
} from '#shared/api/background-jobs.ts';
import type { FunctionDeclaration } from '#shared/api/operation.ts';
import { FALLBACK_OPERATION, type Operation, type OperationName } from '#shared/api/operations/index.ts';
import { OBJECT_EXPIRY_RULES, STORAGE_EXPIRY_DAYS } from '#shared/data/storage-layout.ts';
import { TABLE_SCHEMA } from '#shared/data/table-schema.ts';
import {
  CORS_ALLOWED_HEADERS,
  CORS_ALLOWED_METHODS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE_SECONDS,
} from '#shared/http/cors.ts';
import { ROUTES } from '#shared/http/routes.ts';
import { ApiFunction, type ApiFunctionProps } from '../constructs/api-function.ts';
import { FunctionRoles } from '../constructs/function-roles.ts';
import { TokenPublicKey } from '../constructs/token-public-key.ts';
import type { StageSettings } from '../stage.ts';

export interface ContentRepositoryStackProps extends StackProps {
  stage: StageSettings;
}

export class ContentRepositoryStack extends Stack {
  readonly functions = new Map<OperationName, ApiFunction>();
  /** The function on the table's stream that records the change feed. */
  readonly changeRecorder: ApiFunction;
  /** The second function on the stream: the change feed's new items become webhook deliveries. */
  readonly webhookDispatcher: ApiFunction;
  /** The consumer of the webhook delivery queue. */
  readonly webhookDeliverer: ApiFunction;

  constructor(scope: Construct, id: string, props: ContentRepositoryStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const removalPolicy = stage.ephemeral ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const logRetention = stage.ephemeral ? RetentionDays.ONE_WEEK : RetentionDays.THREE_MONTHS;

    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: !stage.ephemeral },
      // Every committed write, once, in order per item: the change feed is recorded from it.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: !stage.ephemeral,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        ...(index.projection === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      });
    }
    if (stage.ephemeral) {
      Validations.of(table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: `Stage "${stage.name}" is ephemeral (dev, PR or trial): its data is thrown away with the stack.`,
      });
    }

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      removalPolicy,
      autoDeleteObjects: stage.ephemeral,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket is the destination of the upload bucket access logs; logging it would log itself.',
    });

    const bucket = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'uploads/',
      lifecycleRules: [
        {
          id: 'abort-incomplete-multipart-uploads',
          abortIncompleteMultipartUploadAfter: Duration.days(STORAGE_EXPIRY_DAYS.incompleteMultipartUploads),
        },
        ...OBJECT_EXPIRY_RULES.map((rule) => ({
          id: rule.id,
          prefix: rule.prefix,
          ...(rule.tag ? { tagFilters: { [rule.tag.Key]: rule.tag.Value } } : {}),
          expiration: Duration.days(rule.days),
        })),
      ],
      removalPolicy,
      autoDeleteObjects: stage.ephemeral,
    });

    const signingKey = new Key(this, 'TokenSigningKey', {
      description: `Signs Content Repository access tokens (${stage.name})`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      pendingWindow: Duration.days(7),
      removalPolicy,
    });

    const environment: Record<string, string> = {
      TABLE_NAME: table.tableName,
      BUCKET_NAME: bucket.bucketName,
      TOKEN_SIGNING_KEY_ID: signingKey.keyArn,
      TOKEN_PUBLIC_KEY: new TokenPublicKey(this, 'TokenPublicKey', { key: signingKey }).base64,
      TOKEN_ISSUER: `content-repository/${stage.name}`,
      TOKEN_AUDIENCE: 'content-repository-api',
      ...(stage.sessionTimeoutMinutes ? { SESSION_TIMEOUT: String(stage.sessionTimeoutMinutes) } : {}),
      ...(stage.sessionRecheckSeconds !== undefined
        ? { SESSION_RECHECK_SECONDS: String(stage.sessionRecheckSeconds) }
        : {}),
      ...(stage.webTokenExpiresInDays ? { WEBTOKEN_EXPIRES_IN: String(stage.webTokenExpiresInDays) } : {}),
      ...(stage.corsOrigins.length > 0 ? { CORS_ORIGINS: stage.corsOrigins.join(',') } : {}),
      ...(stage.publicBaseUrl ? { PUBLIC_BASE_URL: stage.publicBaseUrl } : {}),
      ...(stage.uploadBaseUrl ? { UPLOAD_BASE_URL: stage.uploadBaseUrl } : {}),
    };
    // One log group for every function (DESIGN: shared log settings): Lambda names each log stream
    // after its function, and it keeps the stack well under CloudFormation's resource limit.
    const logGroup = new LogGroup(this, 'FunctionLogs', { retention: logRetention, removalPolicy });
    const queues = this.makeQueues(stage.ephemeral);
    const base = { table, bucket, signingKey, environment, logGroup, queues };
    // Background jobs first: the operations that start them are told their names.
    const jobRoles = new FunctionRoles(this, 'JobRoles', base);
    const jobs = Object.fromEntries(
      Object.values(BACKGROUND_JOBS).map((job) => [
        job.name,
        new ApiFunction(this, `${job.name[0]?.toUpperCase()}${job.name.slice(1)}`, {
          operation: job,
          roles: jobRoles,
          ...base,
        }).function,
      ]),
    );
    const functionProps = {
      ...base,
      jobs,
      roles: new FunctionRoles(this, 'FunctionRoles', { ...base, jobs }),
    };
    const parked = this.parkedStreamBatches(stage.ephemeral);
    this.changeRecorder = this.onStream('RecordChanges', CHANGE_RECORDER, table, base, parked);
    this.webhookDispatcher = this.onStream(
      'DispatchWebhooks',
      WEBHOOK_DISPATCHER,
      table,
      base,
      parked,
      CHANGE_ITEM_FILTER,
    );
    this.webhookDeliverer = this.deliverWebhooksFromQueue(queues.webhookDeliveries, base);
    const integrations = new Map<OperationName, HttpLambdaIntegration>();
    const integrationFor = (operation: Operation) => {
      const { name } = operation;
      let integration = integrations.get(name);
      if (!integration) {
        const fn = new ApiFunction(this, `${name[0]?.toUpperCase()}${name.slice(1)}`, {
          operation,
          ...functionProps,
        });
        this.functions.set(name, fn);
        integration = new HttpLambdaIntegration(`${name}Integration`, fn.function);
        integrations.set(name, integration);
      }
      return integration;
    };

    const api = new HttpApi(this, 'Api', {
      apiName: `content-repository-${stage.name}`,
      description: 'Content Repository REST API',
      createDefaultStage: false,
      // Unmatched requests get a problem+json 404/405 from the route table, not API Gateway's own body.
      defaultIntegration: integrationFor(FALLBACK_OPERATION),
      ...(stage.corsOrigins.length > 0
        ? {
            corsPreflight: {
              allowOrigins: stage.corsOrigins,
              allowMethods: CORS_ALLOWED_METHODS.map((m) => CorsHttpMethod[m]),
              allowHeaders: CORS_ALLOWED_HEADERS,
              exposeHeaders: CORS_EXPOSED_HEADERS,
              allowCredentials: true,
              maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
            },
          }
        : {}),
    });
    for (const route of ROUTES) {
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrationFor(route.operation),
      });
    }
    const accessLogGroup = new LogGroup(this, 'ApiAccessLogs', { retention: logRetention, removalPolicy });
    new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: stage.throttleRate, burstLimit: stage.throttleBurst },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogGroup) },
    });
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every function verifies the access token and its server-side session itself (revocable sessions, idle ' +
        'timeout); an API Gateway JWT authorizer cannot see revoked sessions. Login and the 404 fallback are public.',
    });

    new CfnOutput(this, 'ApiUrl', {
      value: api.apiEndpoint,
      description: 'base_url; the API is under /api/v1',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'TokenSigningKeyArn', { value: signingKey.keyArn });
    this.providersLogTo(logGroup);
  }

  /**
   * The functions of CDK's custom resource providers (the token public key's reader, and on ephemeral
   * stages the buckets' object deleter) log to the stack's log group too. CustomResourceProvider takes no
   * log settings, and without LoggingConfig Lambda makes each one a /aws/lambda/… group with no retention,
   * which no stack owns: it would outlive `cdk destroy`. The function refers to the group, so CloudFormation
   * deletes the group after the function, and so after the custom resources whose deletion runs it.
   */
  private providersLogTo(logGroup: ILogGroup): void {
    for (const provider of this.node.findAll()) {
      if (!(provider instanceof CustomResourceProviderBase)) continue;
      const handler = provider.node.tryFindChild('Handler');
      if (!(handler instanceof CfnResource) || handler.cfnResourceType !== 'AWS::Lambda::Function') {
        throw new Error(
          `${provider.node.path} has no Handler function to send to the stack's log group (has aws-cdk-lib changed?)`,
        );
      }
      handler.addPropertyOverride('LoggingConfig', { LogGroup: logGroup.logGroupName });
    }
  }

  /** Where the table's stream parks a batch a consumer still fails after its retries (14 days). */
  private parkedStreamBatches(ephemeral: boolean): Queue {
    const parked = new Queue(this, 'ParkedChangeBatches', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: ephemeral ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    Validations.of(parked).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself where the stream parks the batches its consumers could not handle.',
    });
    return parked;
  }

  /**
   * The queues functions send work to, each with a dead-letter queue for messages its consumer fails on
   * (five receives). Messages wait up to 15 minutes (DelaySeconds); a message is hidden six times the
   * consumer's timeout while it is handled, as Lambda's event source mapping asks.
   */
  private makeQueues(ephemeral: boolean): Record<keyof typeof QUEUES, Queue> {
    const removalPolicy = ephemeral ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const dead = new Queue(this, 'WebhookDeliveriesDead', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
    });
    Validations.of(dead).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the webhook delivery queue.',
    });
    const webhookDeliveries = new Queue(this, 'WebhookDeliveries', {
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.seconds(6 * (WEBHOOK_DELIVERER.timeoutSeconds ?? 60)),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: dead, maxReceiveCount: 5 },
      removalPolicy,
    });
    return { webhookDeliveries };
  }

  /**
   * A function on the table's stream, as Lambda's event source mapping runs it: batches in order per
   * shard, a failed batch retried (halved until the failing record is alone), and after 10 tries its
   * position parked in a queue for 14 days, so one bad record cannot hold the stream's consumer for the
   * stream's 24 h. The change recorder takes every record; the webhook dispatcher only the change feed's
   * new items (Lambda event filtering with CHANGE_ITEM_FILTER, the pattern the embedded stream applies).
   */
  private onStream(
    id: string,
    operation: FunctionDeclaration,
    table: Table,
    functionProps: Omit<ApiFunctionProps, 'operation'>,
    parked: Queue,
    filter?: Record<string, unknown>,
  ): ApiFunction {
    const consumer = new ApiFunction(this, id, { operation, ...functionProps });
    Validations.of(consumer.function.role as IConstruct).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams has no resource-level permissions; the stream itself is read through its ARN only ' +
        '(DescribeStream, GetRecords, GetShardIterator).',
    });
    consumer.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(parked),
        ...(filter ? { filters: [FilterCriteria.filter(filter)] } : {}),
      }),
    );
    return consumer;
  }

  /** The webhook deliverer on its queue: batches of 10, failed messages reported one by one. */
  private deliverWebhooksFromQueue(
    queue: Queue,
    functionProps: Omit<ApiFunctionProps, 'operation'>,
  ): ApiFunction {
    const deliverer = new ApiFunction(this, 'DeliverWebhooks', {
      operation: WEBHOOK_DELIVERER,
      ...functionProps,
    });
    deliverer.function.addEventSource(
      new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 10 }),
    );
    return deliverer;
  }
}
