/**
 * The one place that reads `process.env`. Values are read once, on first use, and validated so a
 * misconfigured function fails at its first request with a message that names the variable.
 */

export interface ServiceConfig {
  /** DynamoDB single table. */
  tableName: string;
  /** S3 bucket for upload chunks and files. */
  bucketName: string;
  region: string;
  /** Set only on the embedded stack: dynalite (behind the local transaction gateway) and s3rver. */
  dynamoDbEndpoint: string | undefined;
  s3Endpoint: string | undefined;
  /** Exactly one of these: a KMS key (cloud) or a PEM file (embedded stack) signs access tokens. */
  tokenSigningKeyId: string | undefined;
  tokenSigningKeyFile: string | undefined;
  tokenIssuer: string;
  tokenAudience: string;
  /** Idle timeout of a session, minutes (spec: SESSION_TIMEOUT). */
  sessionTimeoutMinutes: number;
  /** Absolute lifetime of a token and its session, days (spec: WEBTOKEN_EXPIRES_IN). */
  webTokenExpiresInDays: number;
  logLevel: 'info' | 'silent';
  /** Origins of browser apps allowed to call the API with credentials (CORS and cookie requests). */
  corsOrigins: string[];
  /** The installation's public address (no trailing slash) for links in answers; else the request's domain. */
  publicBaseUrl: string | undefined;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name];
  if (!value) throw new ConfigError(`Environment variable ${name} is required`);
  return value;
}

function numberIn(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(
      `Environment variable ${name} must be a number from ${min} to ${max}, got "${raw}"`,
    );
  }
  return value;
}

function publicBaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(raw)) {
    throw new ConfigError(`Environment variable PUBLIC_BASE_URL must be an http(s) address, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

export function readServiceConfig(env: Env = process.env): ServiceConfig {
  const tokenSigningKeyId = env.TOKEN_SIGNING_KEY_ID || undefined;
  const tokenSigningKeyFile = env.TOKEN_SIGNING_KEY_FILE || undefined;
  if (!tokenSigningKeyId === !tokenSigningKeyFile) {
    throw new ConfigError(
      'Set exactly one of TOKEN_SIGNING_KEY_ID (KMS) and TOKEN_SIGNING_KEY_FILE (local PEM)',
    );
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (logLevel !== 'info' && logLevel !== 'silent') {
    throw new ConfigError(`Environment variable LOG_LEVEL must be "info" or "silent", got "${logLevel}"`);
  }
  return {
    tableName: required(env, 'TABLE_NAME'),
    bucketName: required(env, 'BUCKET_NAME'),
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    tokenSigningKeyId,
    tokenSigningKeyFile,
    tokenIssuer: env.TOKEN_ISSUER ?? 'content-repository',
    tokenAudience: env.TOKEN_AUDIENCE ?? 'content-repository-api',
    sessionTimeoutMinutes: numberIn(env, 'SESSION_TIMEOUT', 30, 1, 24 * 60),
    webTokenExpiresInDays: numberIn(env, 'WEBTOKEN_EXPIRES_IN', 1, 1 / 24, 30),
    logLevel,
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL),
  };
}

let cached: ServiceConfig | undefined;

/** The configuration of this process, read on first use. */
export function config(): ServiceConfig {
  cached ??= readServiceConfig();
  return cached;
}

/** Settings of `npm start` (the embedded stack); see README "Configuration". */
export interface LocalStackConfig {
  port: number;
  host: string;
  dataDir: string;
  adminUsername: string;
  adminPassword: string | undefined;
  ttlSweepSeconds: number;
}

export function readLocalStackConfig(env: Env = process.env): LocalStackConfig {
  return {
    port: numberIn(env, 'PORT', 3000, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.DATA_DIR ?? '.data',
    adminUsername: env.ADMIN_USERNAME ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    ttlSweepSeconds: numberIn(env, 'TTL_SWEEP_SECONDS', 60, 1, 3600),
  };
}

/** Settings of the one-off bootstrap of a deployed stage (first administrator, Default environment). */
export function readBootstrapConfig(env: Env = process.env): {
  adminUsername: string;
  adminPassword: string | undefined;
} {
  return { adminUsername: env.ADMIN_USERNAME ?? 'admin', adminPassword: env.ADMIN_PASSWORD || undefined };
}

/** CDK app settings that come from the environment rather than from `-c` context. */
export function readCdkEnvironment(env: Env = process.env): {
  account: string | undefined;
  region: string | undefined;
} {
  return { account: env.CDK_DEFAULT_ACCOUNT, region: env.CDK_DEFAULT_REGION };
}
