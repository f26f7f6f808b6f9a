import type middy from '@middy/core';
import { currentCalls, currentConsumption } from '#shared/clients/capacity-meter.ts';
import { config } from '#shared/config/index.ts';
import { sourceMappedStack } from '#shared/logging/source-mapped-stack.ts';
import type { ParsedEvent } from '../operation.ts';
import type { HttpResult } from '../types.ts';

const prefixed = ({ calls, roundTrips }: { calls: number; roundTrips: number }) => ({
  dynamoCalls: calls,
  dynamoRoundTrips: roundTrips,
});

/**
 * One structured JSON line per request (operation, status, latency, request id, user, DynamoDB capacity
 * consumed, and its DynamoDB calls: how many, and how many one after another). Errors that became a 500
 * are logged with their stack here and nowhere else.
 */
export function requestLog(operation: string): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  const started = new WeakMap<object, number>();
  const write = (request: middy.Request<ParsedEvent, HttpResult>) => {
    if (config().logLevel === 'silent') return;
    const status = request.response?.statusCode ?? 500;
    const consumed = currentConsumption();
    const line: Record<string, unknown> = {
      level: status >= 500 ? 'error' : 'info',
      operation,
      method: request.event.requestContext.http.method,
      path: request.event.rawPath,
      status,
      latencyMs: Date.now() - (started.get(request) ?? Date.now()),
      requestId: request.event.requestContext.requestId,
      userId: request.event.caller?.principal.principalId ?? null,
      consumedRCU: consumed?.readCapacityUnits ?? 0,
      consumedWCU: consumed?.writeCapacityUnits ?? 0,
      ...prefixed(currentCalls()),
    };
    if (status >= 500 && request.error) {
      const { name, message, stack } = request.error;
      line.error = { name, message, stack: sourceMappedStack(stack) };
    }
    console.log(JSON.stringify(line));
  };
  return {
    before: (request) => {
      started.set(request, Date.now());
    },
    after: write,
    onError: write,
  };
}
