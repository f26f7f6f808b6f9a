/**
 * The one construct that gives every operation's function its defaults: Node.js 22 on arm64, an ESM
 * bundle (minified, tree-shaken, AWS SDK included, no source maps), the stack's log group, and a role
 * with exactly the grants its route-table entry asks for (shared with the functions that ask for the
 * same: function-roles.ts), and the names of the jobs and queues it uses in its environment.
 */
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import {
  type ICommandHooks,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { JOB_FUNCTION_VARIABLE, QUEUES } from '#shared/api/background-jobs.ts';
import type { FunctionDeclaration } from '#shared/api/operation.ts';
import { BUNDLED_ASSET_DIR, REFERENCE_ASSET_FILES } from '#shared/api/reference-assets.ts';
import { FUNCTION_BUNDLING } from '../bundling.ts';
import { type FunctionRoles, type RoleResources, roleFor } from './function-roles.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

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

export interface ApiFunctionProps extends RoleResources {
  /** An operation's function, or a background job's. */
  operation: FunctionDeclaration;
  environment: Record<string, string>;
  /**
   * The shared roles: the function takes the one of its access. Without it (a function that reads an
   * event source, whose role the event source grants more), it gets a role of its own.
   */
  roles?: FunctionRoles;
}

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { operation, logGroup } = props;
    const jobVariables = Object.fromEntries(
      (operation.access.invokes ?? []).map((job) => {
        const fn = props.jobs?.[job];
        if (!fn)
          throw new Error(
            `${operation.name} starts the background job ${job}, which the stack has not built`,
          );
        return [JOB_FUNCTION_VARIABLE[job], fn.functionName];
      }),
    );
    const queueVariables = Object.fromEntries(
      (operation.access.sendsTo ?? []).map((name) => {
        const queue = props.queues?.[name];
        if (!queue)
          throw new Error(`${operation.name} sends to the queue ${name}, which the stack has not built`);
        return [QUEUES[name].urlVariable, queue.queueUrl];
      }),
    );
    const role = props.roles
      ? props.roles.for(operation.access)
      : roleFor(this, 'Role', operation.access, props);

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
      environment: { ...props.environment, ...jobVariables, ...queueVariables },
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
  }
}
