// Checks an HTTP answer against /openapi.json: the (method, path template, status) must be
// documented, the body must validate against its schema, and the headers must be those the answer
// declares (every required one present, every header the document names anywhere sent only where
// declared, each value valid). startTestSandbox's request() calls it on every response, so the
// whole integration suite checks the document against reality.
// PIX_OPENAPI_CHECK=strict (default) throws from request(); =warn only appends to
// test-output/openapi-mismatches.log; =off skips the check.
import { appendFileSync, mkdirSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi } from '../../src/schemas/openapi.js';
import { OPERATIONS } from '../../src/operations.js';
import { errorSchema } from '../../src/schemas/responses.js';
import { packagePath } from '../../src/paths.js';

const CHECK_MODE = (process.env.PIX_OPENAPI_CHECK ?? 'strict') as 'strict' | 'warn' | 'off';

type HeaderObject = { required?: boolean; schema: { type?: unknown }; $ref?: string };
type ResponseObject = { content?: Record<string, unknown>; headers?: Record<string, HeaderObject> };
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components: { headers: Record<string, HeaderObject> };
};

let state: {
  doc: Doc;
  ajv: Ajv2020;
  templates: { path: string; re: RegExp; params: number }[];
  /** every header name the document declares on some answer (lower case) */
  named: Set<string>;
} | null = null;
const validators = new Map<string, ValidateFunction>();

function init() {
  if (state) return state;
  const doc = buildOpenApi({ version: 'test', operations: OPERATIONS }) as unknown as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  ajv.addSchema(errorSchema, ERROR_REF);
  const templates = Object.keys(doc.paths)
    .map((path) => ({
      path,
      re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params); // a literal segment wins over a parameter, as in the router
  const named = new Set<string>();
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item))
      if (typeof op === 'object')
        for (const r of Object.values(op.responses)) for (const h of Object.keys(r.headers ?? {})) named.add(h.toLowerCase());
  state = { doc, ajv, templates, named };
  return state;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validatorFor(ref: string): ValidateFunction {
  let fn = validators.get(ref);
  if (!fn) {
    fn = init().ajv.compile({ $ref: ref });
    validators.set(ref, fn);
  }
  return fn;
}

function problemOf(ref: string, value: unknown): string | null {
  const fn = validatorFor(ref);
  if (fn(value)) return null;
  return (fn.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('; ');
}

/** Any error body of the sandbox (the shape of docs/api.md#errors), whatever its status and code. */
const ERROR_REF = 'any-error.json';

export interface SeenResponse {
  method: string;
  /** path and query, as requested */
  url: string;
  status: number;
  headers: Headers;
  /** parsed JSON, or the text, or undefined when empty */
  body: unknown;
  text: string;
}

/** The methods a path of the document has, as its Allow header must list them. */
function allowOf(item: Record<string, unknown>): string[] {
  return Object.keys(item)
    .filter((k) => k !== 'description')
    .flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]))
    .sort();
}

/** What is wrong with the headers of a documented answer. */
function headerProblem(r: SeenResponse, path: string, method: string, status: string): string | null {
  const { doc, named } = init();
  const declared = doc.paths[path]![method]!.responses[status]!.headers ?? {};
  for (const [name, h] of Object.entries(declared)) {
    const common = h.$ref?.split('/').pop();
    const header = common ? doc.components.headers[common]! : h;
    const value = r.headers.get(name);
    if (value === null) {
      if (header.required) return `required header ${name} is missing`;
      continue;
    }
    const at = common ? ['components', 'headers', common] : ['paths', path, method, 'responses', status, 'headers', name];
    // a header carries text: a number-typed header is read as the number it spells (OpenAPI's simple style)
    const numeric = ['integer', 'number'].includes(String(header.schema?.type)) && /^-?\d+(\.\d+)?$/.test(value);
    const p = problemOf(`openapi.json#/${pointer(...at, 'schema')}`, numeric ? Number(value) : value);
    if (p) return `header ${name}: ${p}`;
  }
  const lower = new Set(Object.keys(declared).map((k) => k.toLowerCase()));
  for (const [name] of r.headers) if (named.has(name) && !lower.has(name)) return `header ${name} is sent but not declared`;
  return null;
}

/** What is wrong with this answer according to the document, or null when it is documented. */
export function checkResponse(r: SeenResponse): string | null {
  const { doc, templates } = init();
  const method = r.method.toUpperCase() === 'HEAD' ? 'get' : r.method.toLowerCase();
  let path = r.url.split('?')[0]!;
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const what = `${r.method.toUpperCase()} ${path} → ${r.status}`;
  const isJson = (r.headers.get('content-type') ?? '').includes('application/json');
  if (!r.headers.get('x-request-id')) return `${what}: no x-request-id header`;
  const template = templates.find((t) => t.re.test(path));
  const operation = template ? doc.paths[template.path]![method] : undefined;
  const documented = (status: number) => operation?.responses[String(status)] ?? operation?.responses[`${String(status)[0]}XX`];

  // an injected fault may answer any status on any path, always in the error shape; a 429 or 5xx
  // must be one the operation documents (a path faults never touch documents none)
  if (r.headers.get('x-sandbox-fault') && r.status >= 400) {
    const p = problemOf(ERROR_REF, r.body);
    if (p) return `${what}: injected fault body: ${p}`;
    if (operation && (r.status === 429 || r.status >= 500) && !documented(r.status))
      return `${what}: a fault answered ${r.status}, which ${method.toUpperCase()} ${template!.path} does not document`;
    return null;
  }
  const code = isJson && !problemOf(ERROR_REF, r.body) ? (r.body as { error: { code: string } }).error.code : null;
  if (!template) {
    // an unknown route: 404, or what a stage in front of routing answers for its whole prefix
    // (the admin token guards every /_sandbox path, --require-https every /v1 and /pix path)
    if (r.status === 404 && code === 'NOT_FOUND') return null;
    if (r.status === 401 && code === 'UNAUTHORIZED' && path.startsWith('/_sandbox/')) return null;
    if (r.status === 403 && code === 'HTTPS_REQUIRED' && /^\/(v1|pix)\//.test(path)) return null;
    return `${what}: no documented path matches`;
  }
  if (!operation) {
    // another method on a known path: 405 with Allow listing the path's methods (OPTIONS: 204 with Allow)
    const allow = (r.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean);
    const expected = allowOf(doc.paths[template.path]!);
    if (r.method.toUpperCase() === 'OPTIONS' && r.status === 204) allow.splice(allow.indexOf('OPTIONS'), 1);
    else if (r.status !== 405 || code !== 'METHOD_NOT_ALLOWED') {
      if (r.status === 401 && code === 'UNAUTHORIZED' && path.startsWith('/_sandbox/')) return null;
      if (r.status === 403 && code === 'HTTPS_REQUIRED' && /^\/(v1|pix)\//.test(path)) return null;
      return `${what}: ${method.toUpperCase()} ${template.path} is not documented`;
    }
    if (allow.sort().join(', ') !== expected.join(', '))
      return `${what}: Allow is "${r.headers.get('allow')}", the document has ${expected.join(', ')}`;
    return null;
  }
  const status = operation.responses[String(r.status)] ? String(r.status) : `${String(r.status)[0]}XX`;
  const answer = operation.responses[status];
  if (!answer) return `${what}: status ${r.status} is not documented for ${method.toUpperCase()} ${template.path}`;
  const hp = headerProblem(r, template.path, method, status);
  if (hp) return `${what}: ${hp}`;
  if (r.method.toUpperCase() === 'HEAD') return null;
  const types = Object.keys(answer.content ?? {});
  if (types.length === 0) return r.text === '' ? null : `${what}: documented without a body, but has one`;
  if (types.includes('application/json')) {
    if (!isJson) return `${what}: expected JSON, got ${r.headers.get('content-type')}`;
    const ref = `openapi.json#/${pointer('paths', template.path, method, 'responses', status, 'content', 'application/json', 'schema')}`;
    const p = problemOf(ref, r.body);
    return p ? `${what} (${template.path}): ${p}` : null;
  }
  const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim();
  return types.includes(type) ? null : `${what}: content type ${type} is not one of ${types.join(', ')}`;
}

/** Runs the check as CHECK_MODE says: throws (strict), logs (warn), or nothing (off). */
export function enforceDocumented(r: SeenResponse): void {
  if (CHECK_MODE === 'off') return;
  const problem = checkResponse(r);
  if (!problem) return;
  if (CHECK_MODE === 'strict') throw new Error(`response does not match /openapi.json: ${problem}`);
  mkdirSync(packagePath('test-output'), { recursive: true });
  appendFileSync(packagePath('test-output', 'openapi-mismatches.log'), `${problem}\n`);
}
