/**
 * The parameters of an upload chunk, wherever its client puts them. resumable.js sends them in the query
 * (with its multipart form, as form fields too); flow.js names them `flow…` instead of `resumable…` and,
 * with its default multipart form, sends them only as form fields. They are gathered here under
 * resumable.js's names, for the operation's query schema, and every error is told back in the names and
 * the place (query or body) the client used.
 */
import type middy from '@middy/core';
import type { RawBody } from '#shared/api/operation.ts';
import { DomainError, type FieldError, ValidationError } from '#shared/domain/errors.ts';
import { parseMediaType } from '#shared/domain/file-names.ts';
import type { ChunkBody } from '../chunk-body.ts';
import type { ParsedEvent } from '../operation.ts';
import { queryComponentDecoded } from '../percent-encoding.ts';
import type { HttpResult } from '../types.ts';

const RESUMABLE = 'resumable';
const FLOW = 'flow';
type Dialect = typeof RESUMABLE | typeof FLOW;

/** Where a parameter was sent, under the name it was sent as. */
interface Sent {
  name: string;
  in: 'query' | 'body';
  value: string;
}

/** flowChunkNumber → resumableChunkNumber; other names are left as they are. */
const resumableName = (name: string) => name.replace(/^flow(?=[A-Z])/, RESUMABLE);

const parameterError = (sent: Pick<Sent, 'name' | 'in'>, rule: string, message: string): FieldError => ({
  in: sent.in,
  path: `$.${sent.name}`,
  rule,
  message,
});

/** The names in the raw query string, as many times as each is sent (queryStringParameters joins repeats). */
function queryNames(rawQueryString: string): string[] {
  return rawQueryString
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => queryComponentDecoded(pair.split('=', 1)[0] ?? '') ?? '');
}

/**
 * Every parameter sent, keyed by its resumable.js name: once each, in the query, the form or both alike,
 * and in one naming. Throws a ValidationError naming each one that breaks this.
 */
function gather(
  event: ParsedEvent,
  fields: [string, string][],
): { sent: Map<string, Sent>; dialect: Dialect } {
  const sent = new Map<string, Sent>();
  const errors: FieldError[] = [];
  const counts = new Map<string, number>();
  for (const name of queryNames(event.rawQueryString ?? '')) counts.set(name, (counts.get(name) ?? 0) + 1);
  const query = Object.entries(event.queryStringParameters ?? {}).map(
    ([name, value]): Sent => ({ name, in: 'query', value: value ?? '' }),
  );
  const form = fields.map(([name, value]): Sent => ({ name, in: 'body', value }));
  for (const parameter of [...query, ...form]) {
    if (parameter.in === 'query' && (counts.get(parameter.name) ?? 1) > 1) {
      errors.push(parameterError(parameter, 'repeated', 'is sent more than once'));
      continue;
    }
    const key = resumableName(parameter.name);
    const earlier = sent.get(key);
    if (!earlier) {
      sent.set(key, parameter);
    } else if (earlier.in === 'query' && parameter.in === 'body' && earlier.name === parameter.name) {
      // resumable.js's multipart form repeats the query's parameters: the same value, or a 400.
      if (earlier.value !== parameter.value) {
        errors.push(
          parameterError(
            parameter,
            'matches_query',
            `is "${parameter.value}" in the form, "${earlier.value}" in the query`,
          ),
        );
      }
    } else {
      errors.push(
        parameterError(
          parameter,
          'repeated',
          earlier.name === parameter.name ? 'is sent more than once' : `is sent as ${earlier.name} too`,
        ),
      );
    }
  }
  const names = [...sent.values()].map((parameter) => parameter.name);
  const flowName = names.find((name) => /^flow[A-Z]/.test(name));
  const resumableParameter = names.find((name) => /^resumable[A-Z]/.test(name));
  if (flowName && resumableParameter) {
    errors.push({
      in: sent.get(resumableName(flowName))?.in ?? 'query',
      path: `$.${flowName}`,
      rule: 'parameter_names',
      message: `is named as flow.js does, ${resumableParameter} as resumable.js does: use one naming`,
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { sent, dialect: flowName ? FLOW : RESUMABLE };
}

/** The error as the client will read it: each parameter under the name and in the place it was sent. */
function toldAsSent(error: DomainError, sent: Map<string, Sent>, dialect: Dialect): DomainError {
  const renamed = (text: string) => (dialect === FLOW ? text.replace(/\bresumable(?=[A-Z])/g, FLOW) : text);
  const errors = error.details.errors?.map((fieldError): FieldError => {
    const key = /^\$\.(\w+)$/.exec(fieldError.path)?.[1];
    const parameter = fieldError.in === 'query' && key ? sent.get(key) : undefined;
    return {
      ...fieldError,
      in: parameter?.in ?? fieldError.in,
      path: parameter ? `$.${parameter.name}` : renamed(fieldError.path),
      message: renamed(fieldError.message),
    };
  });
  return new DomainError(error.kind, error.code, renamed(error.message), {
    ...error.details,
    ...(errors ? { errors } : {}),
  });
}

/**
 * Gathers an upload chunk's parameters for validation (ParsedEvent.queryInput) and, with `readBody`
 * (chunk-body.ts's readChunkBody: an operation that takes no body leaves busboy out of its bundle), reads
 * a multipart body down to its file. When the parameters carry no type, the form's type for the file part
 * is taken (flow.js sends none): like resumableType, it is recorded, never trusted for serving.
 */
export function uploadParameters(
  readBody?: (raw: RawBody) => Promise<ChunkBody>,
): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  // Per request: the embedded stack runs one handler for several requests at once.
  const toldFor = new WeakMap<ParsedEvent, (error: DomainError) => DomainError>();
  return {
    before: async ({ event }) => {
      const raw = event.parsedBody as RawBody | undefined;
      const body = raw && readBody ? await readBody(raw) : undefined;
      const { sent, dialect } = gather(event, body?.fields ?? []);
      toldFor.set(event, (error) => toldAsSent(error, sent, dialect));
      const parameters = Object.fromEntries([...sent].map(([key, parameter]) => [key, parameter.value]));
      if (body?.partType && !('resumableType' in parameters) && parseMediaType(body.partType)) {
        parameters.resumableType = body.partType;
      }
      event.queryInput = parameters;
      if (raw && body)
        event.parsedBody = { contentType: raw.contentType, bytes: body.bytes } satisfies RawBody;
    },
    onError: (request) => {
      const told = toldFor.get(request.event);
      if (told && request.error instanceof DomainError) request.error = told(request.error);
    },
  };
}
