/**
 * Percent-decoding that never throws. Paths, query strings and cookies come from clients as sent:
 * a malformed escape (`%E0%A4%A`, a lone `%`) or bytes that are not UTF-8 are bad input, not a crash.
 */

/** The decoded text, or undefined when `encoded` is not well-formed percent-encoded UTF-8. */
export function percentDecoded(encoded: string): string | undefined {
  if (!encoded.includes('%')) return encoded;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** A query-string component: `+` stands for a space (application/x-www-form-urlencoded). */
export const queryComponentDecoded = (encoded: string) => percentDecoded(encoded.replace(/\+/g, ' '));
