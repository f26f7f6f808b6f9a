/**
 * SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN. Defaults come from the function's configuration (30 minutes,
 * 1 day unless the stage sets others); what a system administrator saves replaces them. Each function
 * instance re-reads the saved settings at most once a minute, so a change reaches every live session
 * within a minute: the idle timeout at once, the lifetime as the earlier of the token's own expiry and
 * login time plus the new lifetime.
 */
import { config, perConfig } from '#shared/config/index.ts';
import { findSettings, saveSettings } from '#shared/data/settings-repository.ts';
import type { Settings, SettingsPayload } from '#shared/domain/settings.ts';
import type { Caller } from '#shared/domain/user.ts';
import { requireSystemAdmin } from './require-system-admin.ts';

const REFRESH_MS = 60_000;
/** Each configuration's settings as last read (module state in Lambda: one per function instance). */
const cache = perConfig((): { settings?: Settings; readAt: number } => ({ readAt: 0 }));

export function defaultSettings(): Settings {
  const { sessionTimeoutMinutes, webTokenExpiresInDays } = config();
  return { sessionTimeoutMinutes, webTokenExpiresInDays };
}

export async function currentSettings(now = Date.now()): Promise<Settings> {
  const cached = cache();
  if (!cached.settings || now - cached.readAt > REFRESH_MS) {
    Object.assign(cached, { settings: (await findSettings()) ?? defaultSettings(), readAt: now });
  }
  return cached.settings as Settings;
}

export async function readSettings(caller: Caller): Promise<Settings> {
  requireSystemAdmin(caller);
  const settings = (await findSettings()) ?? defaultSettings();
  Object.assign(cache(), { settings, readAt: Date.now() });
  return settings;
}

export async function changeSettings(caller: Caller, payload: SettingsPayload): Promise<Settings> {
  requireSystemAdmin(caller);
  const settings = {
    sessionTimeoutMinutes: payload.SESSION_TIMEOUT,
    webTokenExpiresInDays: payload.WEBTOKEN_EXPIRES_IN,
  };
  await saveSettings(settings, caller.principal.principalId);
  Object.assign(cache(), { settings, readAt: Date.now() });
  return settings;
}
