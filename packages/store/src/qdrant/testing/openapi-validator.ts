import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/** One request checked against the OpenAPI description. */
export interface RequestCheck {
  method: string;
  /** Path template of the matched operation, e.g. `/collections/{collection_name}/points/query`. */
  operation: string | undefined;
  /** What is wrong with the request; empty when it is valid. */
  errors: string[];
}

/** Validates REST requests against an OpenAPI 3.0 description (path, method, query names, JSON body). */
export interface OpenApiValidator {
  check(method: string, url: string, body: unknown): RequestCheck;
}

type Json = Record<string, unknown>;

/**
 * Rewrites OpenAPI 3.0 schema dialect into JSON Schema that Ajv understands: `nullable: true` becomes
 * a `null` alternative (`{nullable: true}` alone, as Qdrant's spec uses in `anyOf`, becomes
 * `{type: 'null'}`), and local `$ref`s point into the document registered as `openapi`.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `openapi${value}`;
    else if (key !== 'nullable') out[key] = toJsonSchema(value);
  }
  if ((node as Json).nullable === true) {
    if (out.type === undefined && Object.keys(out).every((k) => k === 'description' || k === 'default')) return { type: 'null' };
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const isUint = (max: number) => (value: number): boolean => Number.isInteger(value) && value >= 0 && value <= max;

/**
 * Loads the OpenAPI description at `specFile` (e.g. `shared/qdrant/openapi.json`) and returns a
 * validator. Numeric formats are checked (`uint`, `uint8`, `uint32`, `uint64`, `int64`; `float` and
 * `double` must be finite), `uuid` by pattern; other formats are accepted.
 */
export function createOpenApiValidator(specFile: string): OpenApiValidator {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as { paths: Record<string, Record<string, Json>>; components: Json };
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  ajv.addFormat('uint', { type: 'number', validate: isUint(Number.MAX_SAFE_INTEGER) });
  ajv.addFormat('uint64', { type: 'number', validate: isUint(Number.MAX_SAFE_INTEGER) });
  ajv.addFormat('uint32', { type: 'number', validate: isUint(0xffffffff) });
  ajv.addFormat('uint8', { type: 'number', validate: isUint(255) });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  for (const format of ['binary', 'date-time', 'partial-date-time', 'uri']) ajv.addFormat(format, true);
  ajv.addSchema({ components: toJsonSchema(spec.components) }, 'openapi');

  const routes = Object.keys(spec.paths).map((template) => ({
    template,
    // Literal segments before templated ones: `/collections/aliases` must not match `{collection_name}`.
    literal: template.split('/').filter((s) => !s.startsWith('{')).length,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  routes.sort((a, b) => b.literal - a.literal);
  const compiled = new Map<string, ValidateFunction | null>();

  const bodyValidator = (template: string, method: string): ValidateFunction | null => {
    const key = `${method} ${template}`;
    if (!compiled.has(key)) {
      const body = (spec.paths[template]?.[method]?.requestBody as Json | undefined)?.content as Json | undefined;
      const schema = (body?.['application/json'] as Json | undefined)?.schema;
      compiled.set(key, schema === undefined ? null : ajv.compile(toJsonSchema(schema) as Json));
    }
    return compiled.get(key) ?? null;
  };

  return {
    check(method, url, body) {
      const m = method.toLowerCase();
      const parsed = new URL(url, 'http://qdrant.invalid');
      const route = routes.find((r) => r.pattern.test(parsed.pathname) && spec.paths[r.template]?.[m] !== undefined);
      if (route === undefined) return { method, operation: undefined, errors: [`no operation ${method} ${parsed.pathname} in the OpenAPI description`] };
      const operation = spec.paths[route.template]?.[m] as Json;
      const errors: string[] = [];
      const params = ((operation.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      for (const name of parsed.searchParams.keys()) {
        if (!params.includes(name)) errors.push(`query parameter "${name}" is not defined for ${method} ${route.template}`);
      }
      const validate = bodyValidator(route.template, m);
      if (validate === null) {
        if (body !== undefined) errors.push(`${method} ${route.template} takes no JSON body`);
      } else if (body === undefined) {
        if ((operation.requestBody as Json).required === true) errors.push(`${method} ${route.template} needs a JSON body`);
      } else if (!validate(body)) {
        for (const error of validate.errors ?? []) errors.push(`body${error.instancePath} ${error.message ?? 'is invalid'} (${error.schemaPath})`);
      }
      return { method, operation: route.template, errors };
    },
  };
}
