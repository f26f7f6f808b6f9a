/**
 * The one place that reads `process.env`. A function's configuration is parsed with a schema when it is
 * first asked for (never at import time), so a misconfigured function fails at its first request with a
 * message naming the variable. The embedded stack and tests hand each stack its own configuration
 * (`withConfig`), so several stacks can run in one process without touching `process.env`.
 */
import * as z from 'zod/mini';
import { scopeSlot } from './scope-slots.ts';

/** What a function runs with (README "Configuration"). */
export type ServiceConfig = ReturnType<typeof readServiceConfig>;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const optional = z.optional(z.string());
const numberIn = (min: number, max: number, fallback: string, integer = false) =>
  z._default(
    z
      .string()
      .check(
        z.refine(
          (raw) =>
            raw.trim() !== '' &&
            Number(raw) >= min &&
            Number(raw) <= max &&
            (!integer || Number.isInteger(Number(raw))),
          { message: `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}` },
        ),
      ),
    fallback,
  );
const httpAddress = z.optional(
  z.string().check(z.regex(/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/, 'must be an http(s) address')),
);

/**
 * The ranges of the session knobs, which a stage's context options (infra/stage.ts) are held to as well.
 * The two an administrator may change later are whole numbers, as the settings API takes them, so what
 * GET /admin/settings shows can be sent back.
 */
export const SESSION_KNOB_RANGES = {
  SESSION_TIMEOUT: { min: 1, max: 24 * 60, integer: true },
  SESSION_RECHECK_SECONDS: { min: 0, max: 60, integer: false },
  WEBTOKEN_EXPIRES_IN: { min: 1, max: 30, integer: true },
} as const;
const knob = (name: keyof typeof SESSION_KNOB_RANGES, fallback: string) => {
  const { min, max, integer } = SESSION_KNOB_RANGES[name];
  return numberIn(min, max, fallback, integer);
};

/** Variables a deployed stage and the embedded stack both take (see README "Configuration"). */
const stageKnobs = {
  SESSION_TIMEOUT: knob('SESSION_TIMEOUT', '30'),
  SESSION_RECHECK_SECONDS: knob('SESSION_RECHECK_SECONDS', '5'),
  WEBTOKEN_EXPIRES_IN: knob('WEBTOKEN_EXPIRES_IN', '1'),
  LOG_LEVEL: z._default(z.enum(['info', 'silent']), 'info'),
  CORS_ORIGINS: optional,
  PUBLIC_BASE_URL: httpAddress,
  UPLOAD_BASE_URL: httpAddress,
};

function knobsOf(e: z.output<z.ZodMiniObject<typeof stageKnobs>>) {
  return {
    /** Idle timeout of a session, minutes (spec: SESSION_TIMEOUT). */
    sessionTimeoutMinutes: Number(e.SESSION_TIMEOUT),
    /** How long a warm instance trusts a session check it made (shared/auth/session-checks.ts); 0: never. */
    sessionRecheckSeconds: Number(e.SESSION_RECHECK_SECONDS),
    /** Absolute lifetime of a token and its session, days (spec: WEBTOKEN_EXPIRES_IN). */
    webTokenExpiresInDays: Number(e.WEBTOKEN_EXPIRES_IN),
    logLevel: e.LOG_LEVEL,
    /** Origins of browser apps allowed to call the API with credentials (CORS and cookie requests). */
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    /** The installation's public address (no trailing slash) for links in answers; else the request's domain. */
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    /** Where clients send upload chunks ({upload_url} of the spec, without /upload/); else the API's address. */
    uploadBaseUrl: e.UPLOAD_BASE_URL?.replace(/\/+$/, ''),
  };
}

/** The variables every function reads. */
const serviceEnvSchema = z
  .object({
    TABLE_NAME: z.string(),
    BUCKET_NAME: z.string(),
    AWS_REGION: optional,
    AWS_DEFAULT_REGION: optional,
    DYNAMODB_ENDPOINT: httpAddress,
    S3_ENDPOINT: httpAddress,
    LAMBDA_ENDPOINT: httpAddress,
    /** The function that assembles large uploads in the background (invoked asynchronously). */
    ASSEMBLE_UPLOAD_FUNCTION: optional,
    TOKEN_SIGNING_KEY_ID: optional,
    TOKEN_SIGNING_KEY_FILE: optional,
    TOKEN_PUBLIC_KEY: z.optional(
      z
        .string()
        .check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be a base64 DER public key (KMS GetPublicKey)')),
    ),
    /**
     * How long the change feed waits before it trusts that nothing earlier can still be recorded. The
     * recorder's deadline for landing a change is a third of it (change-recorder.ts), so it has a floor.
     */
    CHANGES_SETTLE_MS: numberIn(30, 60_000, '10000'),
    /** The queue of webhook delivery attempts (its URL); the embedded stack's is served in process. */
    WEBHOOK_QUEUE_URL: httpAddress,
    SQS_ENDPOINT: httpAddress,
    /** Embedded stack only: webhooks may go to loopback addresses (and over http to them). */
    WEBHOOK_ALLOW_LOOPBACK: z._default(z.enum(['true', 'false']), 'false'),
    /**
     * The waits before each retry of a failed delivery, seconds, comma-separated (default 5,30,120,600,
     * 1800,3600,10800: eight attempts over 4 h 43 min, then the delivery is parked).
     */
    WEBHOOK_RETRY_SECONDS: z.optional(
      z
        .string()
        .check(z.regex(/^\d{1,5}(,\d{1,5}){0,19}$/, 'must be up to 20 numbers of seconds, comma-separated')),
    ),
    TOKEN_ISSUER: z._default(z.string(), 'content-repository'),
    TOKEN_AUDIENCE: z._default(z.string(), 'content-repository-api'),
    ...stageKnobs,
  })
  .check(
    z.refine((env) => !env.TOKEN_SIGNING_KEY_ID !== !env.TOKEN_SIGNING_KEY_FILE, {
      message: 'set exactly one of TOKEN_SIGNING_KEY_ID (KMS) and TOKEN_SIGNING_KEY_FILE (local PEM)',
    }),
    // Loopback targets are for a developer's machine: a deployed stack must never call itself.
    z.refine((env) => env.WEBHOOK_ALLOW_LOOPBACK !== 'true' || env.DYNAMODB_ENDPOINT !== undefined, {
      message: 'WEBHOOK_ALLOW_LOOPBACK is for the embedded stack only',
    }),
  );

/** Parses `env` with `schema`; an empty variable counts as unset. */
function parseEnv<S extends z.ZodMiniType>(schema: S, env: Env): z.output<S> {
  const set = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(set);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const what = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return name ? `Environment variable ${name} ${what}` : `Environment: ${what}`;
  });
  throw new ConfigError(problems.join('; '));
}

export function readServiceConfig(env: Env = process.env) {
  const e = parseEnv(serviceEnvSchema, env);
  return {
    /** The single DynamoDB table, and the bucket of upload chunks and files. */
    tableName: e.TABLE_NAME,
    bucketName: e.BUCKET_NAME,
    region: e.AWS_REGION ?? e.AWS_DEFAULT_REGION ?? 'us-east-1',
    /** Set only on the embedded stack: dynalite (behind the local transaction gateway) and s3rver. */
    dynamoDbEndpoint: e.DYNAMODB_ENDPOINT,
    s3Endpoint: e.S3_ENDPOINT,
    lambdaEndpoint: e.LAMBDA_ENDPOINT,
    assembleUploadFunction: e.ASSEMBLE_UPLOAD_FUNCTION,
    /** Exactly one of these: a KMS key (cloud) or a PEM file (embedded stack) signs access tokens. */
    tokenSigningKeyId: e.TOKEN_SIGNING_KEY_ID,
    tokenSigningKeyFile: e.TOKEN_SIGNING_KEY_FILE,
    /** The KMS key's public half (base64 DER), read by the stack at deploy time: verifying needs no KMS. */
    tokenPublicKey: e.TOKEN_PUBLIC_KEY,
    changesSettleMs: Number(e.CHANGES_SETTLE_MS),
    webhookQueueUrl: e.WEBHOOK_QUEUE_URL,
    sqsEndpoint: e.SQS_ENDPOINT,
    webhookAllowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === 'true',
    /** Waits before each retry of a failed webhook delivery, seconds (webhooks.ts has the default). */
    webhookRetrySeconds: e.WEBHOOK_RETRY_SECONDS?.split(',').map(Number),
    tokenIssuer: e.TOKEN_ISSUER,
    tokenAudience: e.TOKEN_AUDIENCE,
    ...knobsOf(e),
  };
}

const scoped = scopeSlot<ServiceConfig>('configuration');
let processConfig: ServiceConfig | undefined;

/** The configuration in force: the one a stack runs this call with, else this process's (read once). */
export function config(): ServiceConfig {
  const scopedConfig = scoped.get();
  if (scopedConfig) return scopedConfig;
  processConfig ??= readServiceConfig();
  return processConfig;
}

/** Runs `fn` (and everything it starts) with `configuration` in force. */
export function withConfig<T>(configuration: ServiceConfig, fn: () => T): T {
  return scoped.run(configuration, fn);
}

/**
 * A value made once per configuration (an SDK client, a key, a cache), as module-level state would be
 * in Lambda, but apart for each stack running in this process.
 */
export function perConfig<T>(make: (configuration: ServiceConfig) => T): () => T {
  const made = new WeakMap<ServiceConfig, T>();
  return () => {
    const configuration = config();
    if (!made.has(configuration)) made.set(configuration, make(configuration));
    return made.get(configuration) as T;
  };
}

/** Settings of `npm start` (the embedded stack); see README "Configuration". */
export interface LocalStackConfig extends ReturnType<typeof knobsOf> {
  port: number;
  host: string;
  dataDir: string;
  adminUsername: string;
  adminPassword: string | undefined;
  ttlSweepSeconds: number;
  indexLagMs: number;
  /** How long the embedded DynamoDB's transactions hold their items, as DynamoDB's commits take. */
  transactionMs: number;
  /** Webhooks may go to loopback addresses (a receiver on this machine). */
  webhookAllowLoopback: boolean;
}

const localEnvSchema = z.object({
  PORT: numberIn(0, 65535, '3000'),
  HOST: z._default(z.string(), '127.0.0.1'),
  DATA_DIR: z._default(z.string(), '.data'),
  ADMIN_USERNAME: z._default(z.string(), 'admin'),
  ADMIN_PASSWORD: optional,
  TTL_SWEEP_SECONDS: numberIn(1, 3600, '60'),
  INDEX_LAG_MS: numberIn(0, 60000, '0'),
  TRANSACTION_MS: numberIn(0, 1000, '0'),
  WEBHOOK_ALLOW_LOOPBACK: z._default(z.enum(['true', 'false']), 'false'),
  ...stageKnobs,
});

export function readLocalStackConfig(env: Env = process.env): LocalStackConfig {
  const e = parseEnv(localEnvSchema, env);
  return {
    port: Number(e.PORT),
    host: e.HOST,
    dataDir: e.DATA_DIR,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    ttlSweepSeconds: Number(e.TTL_SWEEP_SECONDS),
    indexLagMs: Number(e.INDEX_LAG_MS),
    transactionMs: Number(e.TRANSACTION_MS),
    webhookAllowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === 'true',
    ...knobsOf(e),
  };
}

/**
 * Settings of the one-off bootstrap of a deployed stage (first administrator, Default environment).
 * `region` is only the one the environment names: infra/stage-region.ts resolves the stage's region from
 * it and the AWS profile, once, for every client of the bootstrap.
 */
export function readBootstrapConfig(env: Env = process.env): {
  adminUsername: string;
  adminPassword: string | undefined;
  region: string | undefined;
} {
  return {
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
  };
}

/** CDK app settings that come from the environment rather than from `-c` context. */
export function readCdkEnvironment(env: Env = process.env): {
  account: string | undefined;
  region: string | undefined;
} {
  return { account: env.CDK_DEFAULT_ACCOUNT, region: env.CDK_DEFAULT_REGION };
}
