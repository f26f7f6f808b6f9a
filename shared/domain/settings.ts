/** Installation settings that only system administrators change (spec §5.6). */
import * as z from 'zod/mini';
import { named } from '#shared/domain/schema-parts.ts';

/** The settings as kept, with who changed them last. */
export const settingsStoredSchema = z.object({
  /** Idle timeout of a session, minutes. */
  sessionTimeoutMinutes: z.number(),
  /** Absolute lifetime of a token and its session, days. */
  webTokenExpiresInDays: z.number(),
  changedBy: z.optional(z.string()),
  changedAt: z.optional(z.string()),
});
export type Settings = Pick<
  z.output<typeof settingsStoredSchema>,
  'sessionTimeoutMinutes' | 'webTokenExpiresInDays'
>;

export const SETTINGS_LIMITS = {
  SESSION_TIMEOUT: { min: 1, max: 1440 },
  WEBTOKEN_EXPIRES_IN: { min: 1, max: 30 },
} as const;

const within = (limits: { min: number; max: number }) =>
  z.int().check(z.minimum(limits.min), z.maximum(limits.max));

/** The settings as the API shows and takes them, under the spec's names. */
export const settingsSchema = named(
  z.strictObject({
    SESSION_TIMEOUT: within(SETTINGS_LIMITS.SESSION_TIMEOUT),
    WEBTOKEN_EXPIRES_IN: within(SETTINGS_LIMITS.WEBTOKEN_EXPIRES_IN),
  }),
  'Settings',
);

export type SettingsPayload = z.infer<typeof settingsSchema>;

export const toPayload = (s: Settings): SettingsPayload => ({
  SESSION_TIMEOUT: s.sessionTimeoutMinutes,
  WEBTOKEN_EXPIRES_IN: s.webTokenExpiresInDays,
});
