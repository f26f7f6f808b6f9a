/**
 * The one construct that gives every operation's function its defaults: Node.js 22 on arm64, an ESM
 * bundle (minified, tree-shaken, AWS SDK included, split where code loads modules on demand, source maps
 * beside it), the stack's log group, and a role with exactly the grants its route-table entry asks for
 * (shared with the functions that ask for the same: function-roles.ts), and the names of the jobs and
 * queues it uses in its environment.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, DockerImage, Duration, Validations } from 'aws-cdk-lib';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { JOB_FUNCTION_VARIABLE, QUEUES } from '#shared/api/background-jobs.ts';
import type { FunctionDeclaration } from '#shared/api/operation.ts';
import { BUNDLED_ASSET_DIR, REFERENCE_ASSET_FILES } from '#shared/api/reference-assets.ts';
import { bundleFunctionSync } from '../bundling.ts';
import { type FunctionRoles, type RoleResources, roleFor } from './function-roles.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** Swagger UI's files go next to the bundle of the function that serves them. */
function copyReferenceAssets(outputDir: string): void {
  const from = join(PROJECT_ROOT, 'node_modules', 'swagger-ui-dist');
  const to = join(outputDir, BUNDLED_ASSET_DIR);
  mkdirSync(to, { recursive: true });
  for (const file of Object.keys(REFERENCE_ASSET_FILES)) copyFileSync(join(from, file), join(to, file));
}

/**
 * The function's code: its handler bundled here by esbuild, in process (no Docker). NodejsFunction
 * cannot do this: it writes one file, and a split bundle is a folder (index.mjs and its chunks). The
 * asset's hash is the bundle's, so an unchanged bundle is not uploaded again.
 */
function bundledCode(operation: FunctionDeclaration): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('local-bundling-only'),
      // Not run either; it names what is bundled, and CDK keys its cache of staged assets on these
      // options: without it, every function would get the first one's bundle.
      command: ['esbuild', operation.handler, ...(operation.servesReferenceAssets ? ['swagger-ui'] : [])],
      local: {
        tryBundle(outputDir) {
          bundleFunctionSync(join(PROJECT_ROOT, operation.handler), outputDir);
          if (operation.servesReferenceAssets) copyReferenceAssets(outputDir);
          return true;
        },
      },
    },
  });
}

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
  readonly function: LambdaFunction;

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

    this.function = new LambdaFunction(this, 'Function', {
      code: bundledCode(operation),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: operation.memoryMb ?? 512,
      timeout: Duration.seconds(operation.timeoutSeconds ?? 29),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: { ...props.environment, ...jobVariables, ...queueVariables },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime this service is built, bundled (target node22) and tested for; moving to a newer ' +
        'runtime is a deliberate change made together with its tests.',
    });
  }
}
