/**
 * Sends one webhook message: a POST that never follows a redirect, gives up after ATTEMPT_TIMEOUT_MS,
 * keeps the start of the answer, and connects only to addresses the target rules allow
 * (webhook-targets.ts). The check is made in the lookup the socket itself uses, so the address checked
 * is the address connected to, whatever the name resolves to by then; an address written in the URL is
 * checked before connecting. It never throws: every outcome is an attempt for the delivery's log.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type TargetRules, targetRefusal } from '#shared/domain/webhook-targets.ts';
import { ATTEMPT_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from '#shared/domain/webhooks.ts';

export interface SendOutcome {
  /** The endpoint's status; null when no answer came. */
  status: number | null;
  error: string | null;
  durationMs: number;
  response: string | null;
}

class RefusedTarget extends Error {
  readonly code = 'EREFUSEDTARGET';
}

/** A lookup that hands the socket only addresses the rules allow for this URL. */
function guardedLookup(url: URL, rules: TargetRules): typeof dnsLookup {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const refused = targetRefusal(
        url,
        addresses.map((a) => a.address),
        rules,
      );
      if (refused || addresses.length === 0) {
        return callback(new RefusedTarget(refused ?? `${hostname} resolves to no address`));
      }
      // The socket asked for one address or all of them, as Node's own lookup answers.
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  }) as typeof dnsLookup;
}

/** Every address `hostname` resolves to (for checking an endpoint when it is registered). */
export function resolveAll(hostname: string): Promise<string[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return Promise.resolve([bare]);
  return new Promise((resolve, reject) =>
    dnsLookup(bare, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );
}

export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  rules: TargetRules,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (outcome: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(done({ status: null, error: 'the URL cannot be parsed', response: null }));
      return;
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
      const refusal = targetRefusal(target, [literal], rules);
      if (refusal) {
        resolve(done({ status: null, error: `refused: ${refusal}`, response: null }));
        return;
      }
    }
    const client = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body);
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length) },
        lookup: guardedLookup(target, rules),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (answer) => {
        const pieces: Buffer[] = [];
        let kept = 0;
        const finish = () =>
          resolve(
            done({
              status: answer.statusCode ?? null,
              error: null,
              response: kept > 0 ? Buffer.concat(pieces).toString('utf8') : null,
            }),
          );
        answer.on('data', (piece: Buffer) => {
          pieces.push(piece.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
          kept += Math.min(piece.length, RESPONSE_EXCERPT_BYTES - kept);
          // The rest of a long answer is not read: the status and its start are all the log keeps.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            finish();
            answer.destroy();
          }
        });
        answer.on('end', finish);
        answer.on('error', finish);
      },
    );
    request.on('error', (error: Error & { code?: string }) => {
      const reason =
        error instanceof RefusedTarget
          ? `refused: ${error.message}`
          : error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : `${error.code ?? error.name}: ${error.message}`;
      resolve(done({ status: null, error: reason, response: null }));
    });
    request.end(payload);
  });
}
