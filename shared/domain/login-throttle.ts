/**
 * Failed logins are counted per username and per source address in fixed windows; past a limit,
 * further attempts are refused with 429 until the window ends, before any password is checked.
 *
 * Why these numbers (OWASP Authentication and Credential Stuffing cheat sheets): the per-account limit
 * stops guessing one account's password (5 guesses per 15 minutes is 480 a day, against passwords of
 * at least 12 characters); it locks only that account, for at most 15 minutes, and a success clears it.
 * The per-address limit is there against password spraying (one password tried on many accounts from
 * one address), but many honest users share an address (an office behind NAT, a VPN): so it is set
 * twenty times higher than the per-account one. Typing mistakes of a whole office do not reach 100 in
 * 15 minutes; below that, a correct password of an account that is not itself throttled is never
 * refused because other accounts failed from the same address.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  failuresPerUser: 5,
  failuresPerSource: 100,
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
