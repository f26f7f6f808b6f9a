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

const STAGE_NAME = /^[a-z][a-z0-9-]{0,30}$/;
const KEEPS_DATA = /^(prod|production|prod-.+|tenant-.+)$/;

type Context = (key: string) => unknown;

function numberContext(context: Context, key: string, fallback: number | undefined): number | undefined {
  const raw = context(key);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`Context ${key} must be a positive number, got "${raw}"`);
  return value;
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
  const retain = context('retainData');
  const ephemeral = retain === undefined ? !KEEPS_DATA.test(name) : String(retain) !== 'true';
  return {
    name,
    ephemeral,
    throttleRate: numberContext(context, 'throttleRate', 100) as number,
    throttleBurst: numberContext(context, 'throttleBurst', 200) as number,
    sessionTimeoutMinutes: numberContext(context, 'sessionTimeout', undefined),
    sessionRecheckSeconds: numberContext(context, 'sessionRecheck', undefined),
    webTokenExpiresInDays: numberContext(context, 'webTokenExpiresIn', undefined),
    corsOrigins: corsOrigins(context('corsOrigins')),
    publicBaseUrl: httpsAddress('publicBaseUrl', context('publicBaseUrl')),
    uploadBaseUrl: httpsAddress('uploadBaseUrl', context('uploadBaseUrl')),
  };
}
