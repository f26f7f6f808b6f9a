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

/**
 * The parameter names of a raw query string, decoded, as many times as each is sent (the gateway's
 * queryStringParameters joins a repeated parameter's values with commas, so only the raw string tells).
 */
export function queryNames(rawQueryString: string): string[] {
  return rawQueryString
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => queryComponentDecoded(pair.split('=', 1)[0] ?? '') ?? '');
}
