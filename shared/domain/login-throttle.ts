/**
 * Failed logins are counted per username and per source address in fixed windows; past the limit,
 * further attempts are refused with 429 until the window ends, before any password is checked.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  failuresPerUser: 5,
  failuresPerSource: 20,
} as const;

export interface FailureWindow {
  count: number;
  /** Epoch seconds when the window (and the refusal) ends. */
  endsAt: number;
}

/** Seconds to wait before another attempt, or 0 when attempts are allowed. */
export function waitSeconds(window: FailureWindow | null, limit: number, nowSeconds: number): number {
  if (!window || window.endsAt <= nowSeconds || window.count < limit) return 0;
  return window.endsAt - nowSeconds;
}
