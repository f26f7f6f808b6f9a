/**
 * Where webhooks may be sent. An endpoint is a URL anyone with an admin role can type, and the service
 * calls it from inside the cloud: without rules, it could be pointed at the instance metadata service,
 * at other services in a private network, or at the service itself (SSRF). So:
 * - https only (http only to loopback on the embedded stack, when WEBHOOK_ALLOW_LOOPBACK is on);
 * - no credentials in the URL (they would be stored and logged);
 * - every address the host resolves to must be a public unicast address: private, loopback,
 *   link-local (169.254.169.254 included), unique-local, carrier-grade NAT, multicast, reserved and
 *   documentation ranges are refused, IPv4 written inside IPv6 too. Loopback alone is let through by
 *   WEBHOOK_ALLOW_LOOPBACK, which only the embedded stack accepts.
 * The address is checked when the endpoint is registered and again at every connection (the lookup the
 * socket uses), so a name that resolves elsewhere later (DNS rebinding) is refused then. Redirects are
 * never followed.
 */
import ipaddr from 'ipaddr.js';

export interface TargetRules {
  /** The embedded stack's setting: loopback addresses (and http to them) are allowed. */
  allowLoopback: boolean;
}

/** Why a URL or an address is refused; undefined when it is allowed. */
export type Refusal = string | undefined;

/** The ranges ipaddr.js names that are not the public Internet. */
const PUBLIC_RANGE = 'unicast';

/**
 * The range ipaddr.js names for an address, IPv4 written inside IPv6 taken as the IPv4 address: mapped
 * (::ffff:a.b.c.d, which ipaddr.js unwraps) and IPv4-compatible (::a.b.c.d, deprecated, which it calls
 * unicast: ::a9fe:a9fe would reach 169.254.169.254 where a stack routes it so). :: and ::1 stay themselves.
 */
function rangeOf(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    const [high = 0, low = 0] = parts.slice(6);
    if (parts.slice(0, 6).every((part) => part === 0) && (high !== 0 || low > 1)) {
      return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]).range();
    }
  }
  return parsed.range();
}

/** Whether the service may connect to `address` (an IP address as a string). */
export function addressRefusal(address: string, rules: TargetRules): Refusal {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = rangeOf(address);
  if (range === PUBLIC_RANGE) return undefined;
  if (range === 'loopback' && rules.allowLoopback) return undefined;
  return `${address} is a ${range} address; webhooks go to public addresses only`;
}

/** The URL of an endpoint as registered: parsed, or the reason it is refused. */
export function urlRefusal(url: string, rules: TargetRules): { url: URL } | { refusal: string } {
  // The URL parser would read `https:host` or `https:/host` as https://host/: the address is taken as sent.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(url)) return { refusal: 'must be an absolute URL (https://…)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: 'must be an absolute URL (https://…)' };
  }
  if (parsed.username || parsed.password) return { refusal: 'must not carry a user name or password' };
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && rules.allowLoopback)) {
    return { refusal: 'must be an https URL' };
  }
  if (parsed.hash) return { refusal: 'must not have a fragment' };
  if (parsed.port === '0') return { refusal: 'must not name port 0, where nothing can be reached' };
  return { url: parsed };
}

/**
 * An http URL is only for loopback endpoints (embedded stack, WEBHOOK_ALLOW_LOOPBACK): checked when the
 * endpoint is registered and again with the addresses each connection resolves.
 */
export function schemeRefusal(url: URL, addresses: readonly string[]): Refusal {
  if (url.protocol === 'https:') return undefined;
  const loopback = addresses.every((address) => ipaddr.isValid(address) && rangeOf(address) === 'loopback');
  return loopback ? undefined : 'must be an https URL (http is for loopback endpoints only)';
}

/** Why the service may not call `url` at these addresses (undefined: it may). */
export function targetRefusal(url: URL, addresses: readonly string[], rules: TargetRules): Refusal {
  return (
    addresses.map((address) => addressRefusal(address, rules)).find(Boolean) ?? schemeRefusal(url, addresses)
  );
}
