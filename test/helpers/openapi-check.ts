// Checks an HTTP answer against /openapi.json: the (method, path template, status) must be
// documented and the body must validate against its schema. startTestSandbox's request() calls
// it on every response, so the whole integration suite checks the document against reality.
// PIX_OPENAPI_CHECK=strict (default) throws from request(); =warn only appends to
// test-output/openapi-mismatches.log; =off skips the check.
import { appendFileSync, mkdirSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi } from '../../src/schemas/openapi.js';
import { packagePath } from '../../src/paths.js';

export const CHECK_MODE = (process.env.PIX_OPENAPI_CHECK ?? 'strict') as 'strict' | 'warn' | 'off';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

let state: { doc: Doc; ajv: Ajv2020; templates: { path: string; re: RegExp; params: number }[] } | null = null;
const validators = new Map<string, ValidateFunction>();

function init() {
  if (state) return state;
  const doc = buildOpenApi({ version: 'test' }) as unknown as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const templates = Object.keys(doc.paths)
    .map((path) => ({
      path,
      re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params); // a literal segment wins over a parameter, as in the router
  state = { doc, ajv, templates };
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

function bodyProblem(ref: string, body: unknown): string | null {
  const fn = validatorFor(ref);
  if (fn(body)) return null;
  return (fn.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('; ');
}

const ERROR_REF = 'openapi.json#/components/schemas/Error';

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

/** What is wrong with this answer according to the document, or null when it is documented. */
export function checkResponse(r: SeenResponse): string | null {
  const { doc, templates } = init();
  const method = r.method.toUpperCase() === 'HEAD' ? 'get' : r.method.toLowerCase();
  let path = r.url.split('?')[0]!;
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const what = `${r.method.toUpperCase()} ${path} → ${r.status}`;
  const isJson = (r.headers.get('content-type') ?? '').includes('application/json');

  // an injected fault may answer any status on any path, always in the error shape
  if (r.headers.get('x-sandbox-fault') && r.status >= 400) {
    const p = bodyProblem(ERROR_REF, r.body);
    return p ? `${what}: injected fault body: ${p}` : null;
  }
  const template = templates.find((t) => t.re.test(path));
  if (!template) {
    // an unknown route: 404, or what a stage in front of routing answers for its whole prefix
    // (the admin token guards every /_sandbox path, --require-https every /v1 and /pix path)
    const code = isJson && !bodyProblem(ERROR_REF, r.body) ? (r.body as { error: { code: string } }).error.code : null;
    if (r.status === 404 && code === 'NOT_FOUND') return null;
    if (r.status === 401 && code === 'UNAUTHORIZED' && path.startsWith('/_sandbox/')) return null;
    if (r.status === 403 && code === 'HTTPS_REQUIRED' && /^\/(v1|pix)\//.test(path)) return null;
    return `${what}: no documented path matches`;
  }
  const operation = doc.paths[template.path]![method];
  if (!operation) {
    if (r.method.toUpperCase() === 'OPTIONS' && r.status === 204) return null;
    if (r.status === 405 && !bodyProblem(ERROR_REF, r.body)) return null;
    return `${what}: ${method.toUpperCase()} ${template.path} is not documented`;
  }
  const answer = operation.responses[String(r.status)];
  if (!answer) return `${what}: status ${r.status} is not documented for ${method.toUpperCase()} ${template.path}`;
  if (r.method.toUpperCase() === 'HEAD') return null;
  const types = Object.keys(answer.content ?? {});
  if (types.length === 0) return r.text === '' ? null : `${what}: documented without a body, but has one`;
  if (types.includes('application/json')) {
    if (!isJson) return `${what}: expected JSON, got ${r.headers.get('content-type')}`;
    const ref = `openapi.json#/${pointer('paths', template.path, method, 'responses', String(r.status), 'content', 'application/json', 'schema')}`;
    const p = bodyProblem(ref, r.body);
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
