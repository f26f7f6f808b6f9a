/**
 * The OpenAPI 3.1 document, generated from the route table and the operation contracts: the same
 * schemas validate requests, so the reference cannot drift from the service.
 */
import * as z from 'zod/mini';
import { problemSchema } from '#shared/http/problem.ts';
import { ROUTES, type Route } from '#shared/http/routes.ts';
import {
  type ConditionalHeader,
  documentedResponses,
  JSON_BODY,
  type OperationDeclaration,
  type ResponseContract,
  requestContract,
} from './operation.ts';

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/**
 * A schema with a `title` (zod metadata, given where the schema is defined) is a named component of the
 * document, referred to wherever it is a request or response body; everything else is inlined.
 */
const componentName = (schema: z.ZodMiniType) => z.globalRegistry.get(schema)?.title;

/** Tags of spec §1: Common, Action, User, and one per object type. */
export const TAGS = [
  {
    name: 'Common',
    description: 'Objects of every type: create, retrieve, update, delete, list; this reference',
  },
  { name: 'Action', description: 'Tasks (actions) assigned to users' },
  { name: 'User', description: 'Login, logout and users' },
  { name: 'Capability', description: 'Capabilities' },
  { name: 'Collaboration', description: 'Collaboration posts' },
  { name: 'Control', description: 'Controls' },
  { name: 'Document', description: 'Documents and document folders' },
  { name: 'Glossary', description: 'Glossary terms' },
  { name: 'Governance', description: 'Governance analysis, maturity and overview' },
  { name: 'Master data', description: 'Master-data entities and attributes' },
  { name: 'Organization', description: 'Roles, org units, resources and assets' },
  { name: 'Performance', description: 'Performance indicators' },
  { name: 'Process', description: 'Processes and their tasks' },
  { name: 'Risk', description: 'Risks' },
  { name: 'Rule', description: 'Business rules' },
];

function jsonSchema(schema: z.ZodMiniType, io: Io): JsonSchema {
  const {
    $schema: _dialect,
    title: _name,
    ...rest
  } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** Components met while the document is built: name → schema and direction. */
const components = new Map<string, { schema: z.ZodMiniType; io: Io }>();

function schemaRef(schema: z.ZodMiniType, io: Io): JsonSchema {
  const name = componentName(schema);
  if (name) {
    components.set(name, { schema, io });
    return { $ref: `#/components/schemas/${name}` };
  }
  // A union of named schemas refers to each (anyOf: an empty page is a page of any kind).
  const def = schema._zod.def as { type: string; options?: z.ZodMiniType[] };
  if (def.type === 'union' && def.options?.every((option) => componentName(option))) {
    return { anyOf: def.options.map((option) => schemaRef(option, io)) };
  }
  return jsonSchema(schema, io);
}

/** The conditional headers (preconditions.ts: If-Match first, then If-None-Match) on reads and on writes. */
const CONDITION_DESCRIPTIONS: Record<ConditionalHeader, Record<'read' | 'write', string>> = {
  'If-Match': {
    read:
      "The ETag you hold (or `*`): another answers 412. A node's weak ETag matches by its nodeVersionId; a " +
      "strong ETag (a file's SHA-256) matches only a strong tag",
    write:
      'W/"<nodeVersionId>" of the version the write is for, or `*` (any version; for publish and restore it ' +
      'names none, so the body must); another version answers 412',
  },
  'If-None-Match': {
    read: 'ETags you hold, or `*`: the current one answers 304 without a body',
    write:
      'ETags, or `*`: the write is refused with 412 when it names the current version, or is `*` (the object ' +
      'exists); nothing is changed',
  },
};

function parameters(contract: OperationDeclaration, route: Route) {
  const params: JsonSchema[] = [];
  const add = (schema: z.ZodMiniType | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const json = jsonSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      if (location === 'path' && !route.path.includes(`{${name}}`)) continue;
      const { description, ...propertySchema } = property;
      params.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  };
  const request = requestContract(contract);
  add(request.path, 'path');
  add(route.query ?? request.query, 'query');
  const reads = route.method === 'GET' || route.method === 'HEAD';
  for (const name of contract.conditions ?? []) {
    params.push({
      name,
      in: 'header',
      required: false,
      description: CONDITION_DESCRIPTIONS[name][reads ? 'read' : 'write'],
      schema: { type: 'string' },
    });
  }
  if (contract.idempotent) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'A key of your choosing (1–255 visible ASCII characters, no spaces): a repeat of the request with it ' +
        'gets the first answer (Idempotent-Replayed: true) and writes nothing; kept 24 hours, per user',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return params;
}

/** A documented response; without its body for a HEAD, which answers the GET's headers alone. */
function response(contract: ResponseContract, withBody = true) {
  const headers = contract.headers
    ? {
        headers: Object.fromEntries(
          Object.entries(contract.headers).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        ),
      }
    : {};
  const body = contract.body;
  let content: JsonSchema | undefined;
  if (body === 'problem')
    content = { 'application/problem+json': { schema: schemaRef(problemSchema, 'output') } };
  else if (body && 'mediaType' in body) content = { [body.mediaType]: { schema: {} } };
  else if (body) content = { 'application/json': { schema: schemaRef(body, 'output') } };
  return { description: contract.description, ...headers, ...(content && withBody ? { content } : {}) };
}

function operationObject(route: Route) {
  const contract: OperationDeclaration = route.operation;
  const { body, bodyOptional, examples, bodyFormat = JSON_BODY } = requestContract(contract);
  return {
    operationId: route.id ?? contract.name,
    summary: route.summary ?? contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    tags: [route.tag ?? contract.tag],
    ...(contract.authenticated === false ? { security: [] } : {}),
    parameters: parameters(contract, route),
    ...(body
      ? {
          requestBody: {
            required: !bodyOptional,
            content: Object.fromEntries(
              [bodyFormat.mediaType, ...(bodyFormat.alsoDocumented ?? [])].map((mediaType) => [
                mediaType,
                {
                  schema:
                    bodyFormat.mediaType === 'application/json'
                      ? schemaRef(body, 'input')
                      : bodyFormat.mediaType === 'application/octet-stream'
                        ? { type: 'string', format: 'binary' }
                        : { type: 'string' },
                  ...(examples ? { examples } : {}),
                },
              ]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(documentedResponses(contract)).map(([status, r]) => [
        status,
        response(r, route.method !== 'HEAD'),
      ]),
    ),
  };
}

export function buildOpenApiDocument(version = '1.0.0') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operationObject(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Repository API',
      version,
      description:
        'Structured business content (processes, documents, roles, terms, rules, risks, controls, …) kept in a ' +
        'library. Errors are application/problem+json (RFC 9457) with a stable `code` and the `requestId`.',
    },
    servers: [{ url: '/', description: 'This installation' }],
    tags: TAGS,
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token from login',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'access_token',
          description: 'The cookie login sets',
        },
      },
      schemas: Object.fromEntries(
        [...components]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, { schema, io }]) => [name, jsonSchema(schema, io)]),
      ),
    },
  };
}
