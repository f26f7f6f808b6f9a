/**
 * Stages: one stack per installation (`cdk deploy -c stage=NAME`). Tenant installs and production keep
 * their data (RETAIN, point-in-time recovery, deletion protection); every other stage (dev, pr-42,
 * trials) is ephemeral and is destroyed cleanly with `cdk destroy`.
 */
export interface StageSettings {
  name: string;
  ephemeral: boolean;
  /** Requests per second (steady) and burst of the API stage. */
  throttleRate: number;
  throttleBurst: number;
  sessionTimeoutMinutes: number | undefined;
  /** How long a warm function trusts a session check it made, seconds (`-c sessionRecheck=0` turns it off). */
  sessionRecheckSeconds: number | undefined;
  webTokenExpiresInDays: number | undefined;
  /** Browser origins allowed to call the API with credentials (`-c corsOrigins=https://a.example,https://b.example`). */
  corsOrigins: string[];
  /** The installation's public address for links in answers (`-c publicBaseUrl=https://api.example.com`). */
  publicBaseUrl: string | undefined;
  /** Where clients send upload chunks, `{upload_url}` of spec §4.2 (`-c uploadBaseUrl=https://files.example.com`). */
  uploadBaseUrl: string | undefined;
}

import { SESSION_KNOB_RANGES } from '#shared/config/index.ts';

const STAGE_NAME = /^[a-z][a-z0-9-]{0,30}$/;
const KEEPS_DATA = /^(prod|production|prod-.+|tenant-.+)$/;

type Context = (key: string) => unknown;

/**
 * API Gateway's stage throttling (requests per second): the rate is a double and needs only be positive,
 * the burst is a whole number (CloudFormation's ThrottlingBurstLimit is a 32-bit Integer).
 */
const THROTTLE_BURST_RANGE = { min: 1, max: 2_147_483_647, integer: true };

function numberContext(
  context: Context,
  key: string,
  fallback: number | undefined,
  range?: { min: number; max: number; integer: boolean },
): number | undefined {
  const raw = context(key);
  if (raw === undefined) return fallback;
  const value = String(raw).trim() === '' ? Number.NaN : Number(raw);
  if (range) {
    // The functions refuse a session knob out of range at every request: a stage with one would answer
    // nothing. CloudFormation refuses a fractional burst only at deploy time.
    if (!(value >= range.min && value <= range.max) || (range.integer && !Number.isInteger(value))) {
      const kind = range.integer ? 'a whole number' : 'a number';
      throw new Error(`Context ${key} must be ${kind} from ${range.min} to ${range.max}, got "${raw}"`);
    }
  } else if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`Context ${key} must be a positive number, got "${raw}"`);
  }
  return value;
}

/** `-c retainData=true|false`, any letter case; anything else is refused rather than read as false. */
function flagContext(context: Context, key: string): boolean | undefined {
  const raw = context(key);
  if (raw === undefined) return undefined;
  const text = String(raw).toLowerCase();
  if (text !== 'true' && text !== 'false')
    throw new Error(`Context ${key} must be true or false, got "${raw}"`);
  return text === 'true';
}

function corsOrigins(raw: unknown): string[] {
  const origins = String(raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new Error(`corsOrigins: "${origin}" is not an origin like https://app.example.com`);
  }
  return origins;
}

function httpsAddress(option: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const url = String(raw).replace(/\/+$/, '');
  if (!/^https:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(url))
    throw new Error(`${option}: "${raw}" is not an https address like https://api.example.com`);
  return url;
}

export function stageSettings(context: Context): StageSettings {
  const name = String(context('stage') ?? 'dev');
  if (!STAGE_NAME.test(name)) {
    throw new Error(
      `Stage "${name}" must be lower-case letters, digits and dashes, starting with a letter (≤ 31)`,
    );
  }
  const retain = flagContext(context, 'retainData');
  const ephemeral = retain === undefined ? !KEEPS_DATA.test(name) : !retain;
  return {
    name,
    ephemeral,
    throttleRate: numberContext(context, 'throttleRate', 100) as number,
    throttleBurst: numberContext(context, 'throttleBurst', 200, THROTTLE_BURST_RANGE) as number,
    sessionTimeoutMinutes: numberContext(
      context,
      'sessionTimeout',
      undefined,
      SESSION_KNOB_RANGES.SESSION_TIMEOUT,
    ),
    sessionRecheckSeconds: numberContext(
      context,
      'sessionRecheck',
      undefined,
      SESSION_KNOB_RANGES.SESSION_RECHECK_SECONDS,
    ),
    webTokenExpiresInDays: numberContext(
      context,
      'webTokenExpiresIn',
      undefined,
      SESSION_KNOB_RANGES.WEBTOKEN_EXPIRES_IN,
    ),
    corsOrigins: corsOrigins(context('corsOrigins')),
    publicBaseUrl: httpsAddress('publicBaseUrl', context('publicBaseUrl')),
    uploadBaseUrl: httpsAddress('uploadBaseUrl', context('uploadBaseUrl')),
  };
}
