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
import { lineBreaksAsLf, parseMediaType } from '#shared/domain/file-names.ts';
import { resumableQuerySchema } from '#shared/domain/uploads/chunk-rules.ts';
import type { ChunkBody } from '../chunk-body.ts';
import type { ParsedEvent } from '../operation.ts';
import { queryNames } from '../percent-encoding.ts';
import type { HttpResult } from '../types.ts';
import { jsonPath } from '../validation.ts';

type Place = 'query' | 'body';

/** Where a parameter was sent, under the name it was sent as. */
interface Sent {
  name: string;
  in: Place;
  value: string;
}

/** The parameters as gathered: by resumable.js's name, and how to tell an error back to the client. */
interface Gathered {
  sent: Map<string, Sent>;
  /** flow.js's names were used. */
  flow: boolean;
  /** Where a parameter that was not sent should have been: the form, when every one came there. */
  missingIn: Place;
}

/** resumable.js's parameter names, and flow.js's for them (the same after `flow`). */
const RESUMABLE_NAMES = Object.keys(resumableQuerySchema.shape);
const AS_FLOW = new RegExp(`\\b(?:${RESUMABLE_NAMES.join('|')})\\b`, 'g');
const flowNameOf = (name: string) => name.replace(/^resumable/, 'flow');
/** flowChunkNumber → resumableChunkNumber; other names are left as they are. */
const resumableName = (name: string) => name.replace(/^flow(?=[A-Z])/, 'resumable');

const parameterError = (sent: Pick<Sent, 'name' | 'in'>, rule: string, message: string): FieldError => ({
  in: sent.in,
  path: jsonPath([sent.name]),
  rule,
  message,
});

/**
 * Every parameter sent, keyed by its resumable.js name: once each, in the query, the form or both alike,
 * and in one naming. Throws a ValidationError naming each one that breaks this.
 */
function gather(event: ParsedEvent, fields: [string, string][]): Gathered {
  const sent = new Map<string, Sent>();
  const errors: FieldError[] = [];
  const counts = new Map<string, number>();
  for (const name of queryNames(event.rawQueryString ?? '')) counts.set(name, (counts.get(name) ?? 0) + 1);
  const query = Object.entries(event.queryStringParameters ?? {}).map(
    ([name, value]): Sent => ({ name, in: 'query', value: lineBreaksAsLf(value ?? '') }),
  );
  const form = fields.map(([name, value]): Sent => ({ name, in: 'body', value: lineBreaksAsLf(value) }));
  // The query's parameters the form has repeated already (resumable.js's form repeats each once).
  const repeatedInForm = new Set<string>();
  for (const parameter of [...query, ...form]) {
    if (parameter.in === 'query' && (counts.get(parameter.name) ?? 1) > 1) {
      errors.push(parameterError(parameter, 'repeated', 'is sent more than once'));
      continue;
    }
    const key = resumableName(parameter.name);
    const earlier = sent.get(key);
    if (!earlier) {
      sent.set(key, parameter);
    } else if (
      earlier.in === 'query' &&
      parameter.in === 'body' &&
      earlier.name === parameter.name &&
      !repeatedInForm.has(key)
    ) {
      repeatedInForm.add(key);
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
    errors.push(
      parameterError(
        sent.get(resumableName(flowName)) as Sent,
        'parameter_names',
        `is named as flow.js does, ${resumableParameter} as resumable.js does: use one naming`,
      ),
    );
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const places = new Set([...sent.values()].map((parameter) => parameter.in));
  return {
    sent,
    flow: flowName !== undefined,
    missingIn: places.size === 1 && places.has('body') ? 'body' : 'query',
  };
}

/**
 * An error about the parameters as the client will read it: each under the name and in the place it was
 * sent (or, for one not sent, the name its client uses). Errors about anything else are left as they are.
 */
function toldAsSent(error: DomainError, { sent, flow, missingIn }: Gathered): DomainError {
  const fieldErrors = error.details.errors;
  if (!fieldErrors?.some((fieldError) => fieldError.in === 'query')) return error;
  const byPath = new Map([...sent].map(([key, parameter]) => [jsonPath([key]), parameter]));
  const renamed = (text: string) => (flow ? text.replace(AS_FLOW, flowNameOf) : text);
  const errors = fieldErrors.map((fieldError): FieldError => {
    if (fieldError.in !== 'query') return fieldError;
    const parameter = byPath.get(fieldError.path);
    return {
      ...fieldError,
      in: parameter?.in ?? missingIn,
      path: parameter ? jsonPath([parameter.name]) : renamed(fieldError.path),
      message: renamed(fieldError.message),
    };
  });
  const told =
    error instanceof ValidationError
      ? new ValidationError(errors)
      : new DomainError(error.kind, error.code, renamed(error.message), { ...error.details, errors });
  // Logged with where it was thrown, not where it was retold.
  told.stack = error.stack;
  return told;
}

/**
 * Types that say nothing of the file: a browser sends application/octet-stream for a file without a
 * type, and curl's --data-binary sends its body as a form unless told otherwise.
 */
const SAYS_NOTHING = new Set(['application/octet-stream', 'application/x-www-form-urlencoded']);

/**
 * The declared type the body gives the file (the form's file part, or a raw body's Content-Type as the
 * spec's example sends text/plain), when it says more than "bytes": flow.js sends no type parameter, and
 * resumable.js sends `resumableType=` for a file without one. Like resumableType, it is recorded, never
 * trusted for serving.
 */
const partTypeOf = (body: ChunkBody | undefined): string | undefined => {
  const essence = body?.partType ? parseMediaType(body.partType)?.essence : undefined;
  return essence && !SAYS_NOTHING.has(essence) ? (body?.partType ?? undefined) : undefined;
};

/**
 * Gathers an upload chunk's parameters for validation (ParsedEvent.queryInput) and, with `readBody`
 * (chunk-body.ts's readChunkBody: an operation that takes no body leaves busboy out of its bundle), reads
 * a multipart body down to its file. Without a type parameter, the file part's type is taken (partTypeOf).
 */
export function uploadParameters(
  readBody?: (raw: RawBody) => Promise<ChunkBody>,
): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  // Per request: the embedded stack runs one handler for several requests at once.
  const gatheredFor = new WeakMap<ParsedEvent, Gathered>();
  return {
    before: async ({ event }) => {
      const raw = event.parsedBody as RawBody | undefined;
      const body = raw && readBody ? await readBody(raw) : undefined;
      const gathered = gather(event, body?.fields ?? []);
      gatheredFor.set(event, gathered);
      const parameters = Object.fromEntries(
        [...gathered.sent].map(([key, parameter]) => [key, parameter.value]),
      );
      const partType = partTypeOf(body);
      if (partType && !('resumableType' in parameters)) parameters.resumableType = partType;
      event.queryInput = parameters;
      if (raw && body)
        event.parsedBody = { contentType: raw.contentType, bytes: body.bytes } satisfies RawBody;
    },
    onError: (request) => {
      const gathered = gatheredFor.get(request.event);
      if (gathered && request.error instanceof DomainError)
        request.error = toldAsSent(request.error, gathered);
    },
  };
}
