/**
 * Every response the integration tests receive is checked against the OpenAPI document: its status
 * must be documented for the operation, and its body must match the documented schema. A response
 * that breaks its contract fails the test that provoked it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';
import { resolveRoute } from '#shared/http/routes.ts';

const document = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its default export arrives wrapped when imported as ESM.
const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ??
  formatsPlugin) as unknown as (a: Ajv2020) => void;
addFormats(ajv);
ajv.addSchema(document, 'openapi');

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;

function validate(schemaPath: string, body: unknown, what: string): void {
  const validator = ajv.getSchema(`openapi#/${schemaPath}`);
  if (!validator) throw new Error(`No schema at ${schemaPath}`);
  if (!validator(body)) {
    throw new Error(
      `${what}: the body breaks its documented schema: ${ajv.errorsText(validator.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

/** `target` is the request target as sent (path and query, never normalized). */
export function assertMatchesContract(
  method: string,
  target: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const pathname = target.split('?')[0] ?? target;
  const what = `${method} ${pathname} → ${status}`;
  const resolved = resolveRoute(method, pathname);
  if (method === 'HEAD') {
    // The GET's status and headers, without the body: no body to hold to a schema.
    if (body !== '') throw new Error(`${what}: a HEAD was answered with a body`);
    const documented =
      !resolved || !('route' in resolved)
        ? [400, 404, 405, 413].includes(status)
        : (document.paths[resolved.route.path]?.get as { responses: Responses } | undefined)?.responses[
            String(status)
          ] !== undefined;
    if (!documented) throw new Error(`${what}: status ${status} is not documented for the GET`);
    return;
  }
  if (!resolved || !('route' in resolved)) {
    // The $default fallback: an undocumented path answers a problem (404 or 405).
    if (status !== 400 && status !== 404 && status !== 405 && status !== 413)
      throw new Error(`${what}: unexpected status for an unrouted request`);
    validate('components/schemas/Problem', body, what);
    return;
  }
  const path = resolved.route.path;
  const verb = method.toLowerCase();
  const operation = document.paths[path]?.[verb] as { responses: Responses } | undefined;
  if (!operation) throw new Error(`${what}: ${method} ${path} is not in the document`);
  const responses = operation.responses;
  const documented = responses[String(status)];
  if (!documented)
    throw new Error(`${what}: status ${status} is not documented for ${resolved.route.operation}`);
  if (!documented.content) {
    if (body !== '' && body !== undefined)
      throw new Error(`${what}: documented without a body, but one was sent`);
    return;
  }
  const mediaType = (contentType ?? '').split(';')[0]?.trim() ?? '';
  const declared = documented.content[mediaType] ? mediaType : documented.content['*/*'] ? '*/*' : undefined;
  if (!declared)
    throw new Error(
      `${what}: content type ${mediaType} is not documented (${Object.keys(documented.content)})`,
    );
  if (declared === '*/*') return;
  validate(
    pointer('paths', path, verb, 'responses', String(status), 'content', declared, 'schema'),
    body,
    what,
  );
}
